import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from './server';
import { api, inspectUid, login, tokenFor, userPath } from './test-support';

describe('dataFile persistence', () => {
  let directory: string;
  let dataFile: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
    dataFile = join(directory, 'state.json');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps erasures, created users, sessions and tokens across a restart', async () => {
    const first = await startSandbox({ users: 30, dataFile });
    const token = await tokenFor(first, 'authentication');
    expect((await api(first, 'POST', `${userPath('team/lead')}/anonymize`, token)).status).toBe(200);
    expect((await api(first, 'DELETE', userPath('hash#tag'), token)).status).toBe(200);
    await fetch(`${first.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: 'new person', full_name: 'Nouvelle Personne' }) });
    await login(first, 'new person');
    await first.close();

    const second = await startSandbox({ users: 30, dataFile });
    try {
      expect((await inspectUid(second, 'team/lead')).body.state).toBe('anonymized');
      expect((await inspectUid(second, 'hash#tag')).body.state).toBe('deleted');
      expect((await inspectUid(second, 'new person')).body).toMatchObject({ state: 'active', sessionCount: 1 });
      // The token issued before the restart still works.
      expect((await api(second, 'POST', `${userPath('jean dupont')}/anonymize`, token)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('writes the file atomically and never stores a usable token or the secret', async () => {
    const sandbox = await startSandbox({ users: 10, dataFile });
    const token = await tokenFor(sandbox, 'public');
    await sandbox.close();
    const text = readFileSync(dataFile, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ version: 1 });
    expect(text).not.toContain(token);
    expect(text).not.toContain(sandbox.credentials.apiSecret);
    expect(readdirSync(directory)).toEqual(['state.json']);
  });

  it('reset writes the seeded state back', async () => {
    const sandbox = await startSandbox({ users: 10, dataFile });
    const token = await tokenFor(sandbox, 'authentication');
    await api(sandbox, 'DELETE', userPath('alice@example.org'), token);
    await sandbox.reset();
    await sandbox.close();
    const again = await startSandbox({ users: 10, dataFile });
    try {
      expect((await inspectUid(again, 'alice@example.org')).body.state).toBe('active');
    } finally {
      await again.close();
    }
  });

  it.each([
    ['not JSON', '{ this is not json', /not valid JSON/],
    ['JSON of another shape', JSON.stringify({ users: 'lots' }), /not sandbox state/],
  ])('refuses to start on a corrupt file (%s) and leaves it alone', async (_label, content, message) => {
    writeFileSync(dataFile, content);
    await expect(startSandbox({ users: 10, dataFile })).rejects.toThrow(message);
    await expect(startSandbox({ users: 10, dataFile })).rejects.toThrow(/delete it to start again/);
    expect(readFileSync(dataFile, 'utf8')).toBe(content);
  });
});

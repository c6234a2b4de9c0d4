import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { createSessionCredentialStore } from '../../core/credential-store';
import { startWebHost, type RunningWebHost } from '../../web-host/web-host';
import { startCliFixture, type CliFixture } from '../cli/cli-harness';
import { deepJson, HOSTILE_CREDENTIALS, startForeignServer, startHostileService, type HostileServer } from './hostile-service';

/**
 * JSON nested tens of thousands deep is valid and JSON.parse reads it, but whatever walks it recursively
 * afterwards (JSON.stringify of an answer, the audit chain's canonical form) overflows the stack. Wherever such
 * JSON comes from — a users page, a logout token's claims, one line of the audit trail — the operator gets the
 * usual typed answer, never an HTTP 500, an INTERNAL error or a trail that refuses every act.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const deepToken = `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64(`{"sub":"alice","aud":${deepJson()}}`)}.c2lnbmF0dXJl`;

describe('deeply nested JSON from a hostile service', () => {
  let foreign: HostileServer;
  let hostile: HostileServer;
  let host: RunningWebHost;
  let dataDir: string;
  let staticDir: string;
  let profileId: string;

  beforeAll(async () => {
    foreign = await startForeignServer();
    hostile = await startHostileService(() => 'deep-json', foreign.url);
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-deep-'));
    staticDir = mkdtempSync(join(tmpdir(), 'privacy-desk-deep-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Privacy Desk</title>');
    host = await startWebHost({ port: 0, dataDir, staticDir, bundledSandbox: false, openCredentials: async () => ({ store: createSessionCredentialStore(), problem: 'test' }) });
    const saved = await bridge('profiles.save', { name: 'Hostile', baseUrl: hostile.url, applicationName: 'app', ...HOSTILE_CREDENTIALS });
    expect(saved.status).toBe(200);
    profileId = (saved.json as { ok: true; value: { id: string } }).value.id;
  });
  afterAll(async () => {
    await host?.close();
    await hostile?.close();
    await foreign?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(staticDir, { recursive: true, force: true });
  });

  async function bridge(method: string, input: unknown): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${host.origin}/bridge/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token, Origin: host.origin, 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify(input),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, json };
  }

  async function cli(args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...args, '--base-url', hostile.url, '--app', 'app'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from([]),
      env: {
        PATH: process.env.PATH,
        PRIVACY_DESK_DATA_DIR: dataDir,
        PRIVACY_DESK_API_KEY: HOSTILE_CREDENTIALS.apiKey,
        PRIVACY_DESK_API_SECRET: HOSTILE_CREDENTIALS.apiSecret,
        PRIVACY_DESK_CREDENTIAL_STORE: 'session',
        NO_COLOR: '1',
      },
    });
    return { code, stdout, stderr };
  }

  it('a users page: the web host answers the typed error (no HTTP 500), the CLI too (no INTERNAL)', async () => {
    const answer = await bridge('users.list', { profileId });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ ok: false, error: { code: 'UNEXPECTED_RESPONSE', message: expect.stringMatching(/nested more than \d+ levels deep/) } });

    const run = await cli(['users', 'list', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^UNEXPECTED_RESPONSE: .*nested more than \d+ levels deep/m);
  });

  it('an erasure answered 200 with deep JSON: outcome unknown (the answer cannot be read), exit 3', async () => {
    const run = await cli(['users', 'anonymize', 'alice', '--confirm', 'alice', '--no-logout-first']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^UNEXPECTED_RESPONSE: .*nested more than \d+ levels deep/m);
    expect(run.stderr).toMatch(/Outcome: UNKNOWN/);
  });

  it('a logout token whose claims are nested deep: a verdict that names the problem, in the window and the CLI', async () => {
    const answer = await bridge('logout.verify', { profileId, token: deepToken });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ ok: true, value: { valid: false, problems: expect.arrayContaining([expect.stringMatching(/claims .*nested too deeply/)]) } });
    const run = await cli(['token', 'verify', deepToken, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: false, problems: expect.arrayContaining([expect.stringMatching(/claims .*nested too deeply/)]) });
  });
});

describe('one deeply nested line in the audit trail', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(3);
  });
  afterAll(async () => f?.close());

  it('is a corrupt entry like any other: the next act is recorded after it, and verify names its line', async () => {
    const uid = 'deep-audit';
    const created = await fetch(`${f.sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
    expect(created.status).toBe(201);
    // One act first, so the trail has a chain; then a deep line, as a hand or a hostile process would leave it.
    expect((await f.cli(['logout', uid])).code).toBe(0);
    appendFileSync(join(f.dataDir, 'audit.jsonl'), `{"format":2,"seq":3,"at":"2026-11-22T18:00:00.000+01:00","action":"logout","outcome":"done","uid":"x","profileId":"p","profileName":"P","baseUrl":"http://x","via":"cli","test":{"case":"expired","deep":${deepJson()}},"prevHash":"${'0'.repeat(64)}"}\n`);

    const act = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--no-logout-first']);
    expect(act.stderr).not.toMatch(/AUDIT_WRITE_FAILED/);
    expect(act.code).toBe(0);
    expect((await f.sandboxUser(uid)).body?.state).toBe('anonymized');

    const list = await f.cli(['audit', 'list', '--json'], { connection: false });
    const reading = JSON.parse(list.stdout) as { corrupt: Array<{ line: number; problem: string }>; entries: Array<{ uid: string; outcome: string }> };
    expect(reading.corrupt).toEqual([expect.objectContaining({ line: 3, problem: expect.stringMatching(/nested more than \d+ levels deep/) })]);
    expect(reading.entries.filter((e) => e.uid === uid).map((e) => e.outcome)).toEqual(['attempted', 'done', 'attempted', 'done', 'attempted', 'verification']);

    const verify = await f.cli(['audit', 'verify', '--json'], { connection: false });
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: false, kind: 'corrupt', line: 3 });
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditIntact } from '../../shared/audit';
import { createSessionCredentialStore } from '../credential-store';
import { createDesk } from '../desk';
import { REGISTER_FILE_NAME } from './register-file';

/** `audit verify` (desk.verifyAudit) checks the request register against the audit entries that vouch for its lines. */
describe('audit verify covers the request register', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'register-check-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const desk = () => createDesk({ dataDir: dir, credentialStore: createSessionCredentialStore(), via: 'cli', operator: 'dpo' });
  const path = () => join(dir, REGISTER_FILE_NAME);
  const lines = () => readFileSync(path(), 'utf8').trimEnd().split('\n');
  const rewrite = (next: string[]) => writeFileSync(path(), `${next.join('\n')}\n`);

  async function threeEvents() {
    const d = desk();
    const request = await d.requests.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }] });
    await d.requests.apply(request.id, { kind: 'pause' });
    await d.requests.apply(request.id, { kind: 'resume' });
    const verdict = await d.verifyAudit();
    expect(verdict.register).toEqual({ ok: true, events: 3 });
    expect(auditIntact(verdict)).toBe(true);
    return d;
  }

  it('leaves the verdict untouched when there is no register', async () => {
    expect((await desk().verifyAudit()).register).toBeUndefined();
  });

  it('an edited event', async () => {
    const d = await threeEvents();
    rewrite(lines().map((line, i) => (i === 1 ? line.replace('"by":"dpo"', '"by":"someone"') : line)));
    const verdict = await d.verifyAudit();
    expect(verdict.ok).toBe(true); // the chain itself is intact
    expect(auditIntact(verdict)).toBe(false);
    expect(verdict.register).toMatchObject({ ok: false, kind: 'edited', line: 2, message: expect.stringMatching(/^Line 2 of the request register was changed after it was written/) });
  });

  it('a removed event, in the middle and at the end', async () => {
    const d = await threeEvents();
    const all = lines();
    rewrite([all[0] as string, all[2] as string]);
    expect((await d.verifyAudit()).register).toMatchObject({ ok: false, kind: 'removed', message: expect.stringMatching(/Event 2 of the request register \(pause of REQ-2026-0001/) });
    rewrite(all.slice(0, 2));
    expect((await d.verifyAudit()).register).toMatchObject({ ok: false, kind: 'removed', line: 3, message: expect.stringMatching(/Event 3 .*resume.* no longer in it/) });
  });

  it('the trail as read for the audit view says the same: a badge drawn from that reading is never "verified" over an edited register', async () => {
    const d = await threeEvents();
    expect((await d.readAudit()).verdict.register).toEqual({ ok: true, events: 3 });
    rewrite(lines().map((line, i) => (i === 1 ? line.replace('"by":"dpo"', '"by":"someone"') : line)));
    const reading = await d.readAudit();
    expect(reading.verdict.ok).toBe(true);
    expect(auditIntact(reading.verdict)).toBe(false);
    expect(reading.verdict.register).toMatchObject({ ok: false, kind: 'edited', line: 2 });
  });

  it('reordered events', async () => {
    const d = await threeEvents();
    const [a, b, c] = lines() as [string, string, string];
    rewrite([a, c, b]);
    expect((await d.verifyAudit()).register).toMatchObject({ ok: false, kind: 'reordered', line: 2 });
  });

  it('an event added by hand', async () => {
    const d = await threeEvents();
    const all = lines();
    const forged = JSON.parse(all[2] as string);
    forged.event = 4;
    rewrite([...all, JSON.stringify(forged)]);
    expect((await d.verifyAudit()).register).toMatchObject({ ok: false, kind: 'unaudited', line: 4 });
  });
});

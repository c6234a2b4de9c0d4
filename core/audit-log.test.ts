import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../shared/audit';
import { openAuditLog } from './audit-log';

describe('audit log', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const entry = (uid: string, outcome: AuditEntry['outcome']): AuditEntry => ({
    at: new Date().toISOString(), action: 'delete', uid, profileId: 'p', profileName: 'P', baseUrl: 'https://p.example.com', outcome, via: 'app',
  });

  it('appends one JSON line per entry and lists newest first, with a limit', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    await log.append(entry('a', 'succeeded'));
    await log.append(entry('b', 'attempted'));
    expect(readFileSync(log.path, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    expect((await log.list(2)).map((e) => `${e.uid}:${e.outcome}`)).toEqual(['b:attempted', 'a:succeeded']);
  });

  it('writes only audit fields, whatever else rides along', async () => {
    const log = openAuditLog(dir);
    await log.append({ ...entry('a', 'attempted'), apiSecret: 'leak-me-please' } as AuditEntry);
    expect(readFileSync(log.path, 'utf8')).not.toContain('leak-me-please');
  });

  it('keeps the actId that pairs an attempt with its outcome', async () => {
    const log = openAuditLog(dir);
    const actId = '0b6f2c1e-4d2a-4c8e-9a51-3f1c2d7e8a90';
    await log.append({ ...entry('a', 'attempted'), actId });
    await log.append({ ...entry('a', 'succeeded'), actId });
    expect((await log.list()).map((e) => e.actId)).toEqual([actId, actId]);
  });

  it('a torn last line does not hide the others', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    appendFileSync(log.path, '{"at":"2026-');
    expect(await log.list()).toHaveLength(1);
  });

  it('is empty before the first entry', async () => {
    expect(await openAuditLog(dir).list()).toEqual([]);
  });
});

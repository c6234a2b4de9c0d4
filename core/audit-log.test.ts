import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../shared/audit';
import { openAuditLog } from './audit-log';
import { AUDIT_LOCK, lockPathFor } from './data-lock';

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
    await log.append(entry('a', 'done'));
    await log.append(entry('b', 'attempted'));
    expect(readFileSync(log.path, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    expect((await log.list(2)).map((e) => `${e.uid}:${e.outcome}`)).toEqual(['b:attempted', 'a:done']);
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
    await log.append({ ...entry('a', 'done'), actId });
    expect((await log.list()).map((e) => e.actId)).toEqual([actId, actId]);
  });

  it('a torn last line does not hide the others', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    appendFileSync(log.path, '{"at":"2026-');
    expect(await log.list()).toHaveLength(1);
  });

  it('moves a torn last line to a file of its own before the next entry, which never lands on it', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    appendFileSync(log.path, '{"at":"2026-');
    await log.append(entry('b', 'attempted'));
    expect((await log.list()).map((e) => e.uid)).toEqual(['b', 'a']);
    const aside = readdirSync(dir).filter((name) => name.startsWith('audit.jsonl.torn-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0] ?? ''), 'utf8')).toBe('{"at":"2026-');
    expect(readFileSync(log.path, 'utf8')).not.toContain('{"at":"2026-\n');
    const reading = await log.read();
    expect(reading.setAside).toEqual({ path: join(dir, aside[0] ?? ''), bytes: 12 });
    expect(reading.verdict).toMatchObject({ ok: true, entries: 2 });
  });

  it('hands the last complete line, as stored, to an entry built from it', async () => {
    const log = openAuditLog(dir);
    const seen: Array<string | null> = [];
    const chained = (uid: string) => (lastLine: string | null) => {
      seen.push(lastLine);
      return entry(uid, 'attempted');
    };
    await log.appendAfterLast(chained('a'));
    await log.appendAfterLast(chained('b'));
    appendFileSync(log.path, '{"torn');
    await log.appendAfterLast(chained('c'));
    const lines = readFileSync(log.path, 'utf8').split('\n');
    expect(seen).toEqual([null, lines[0], lines[1]]);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ uid: 'a' });
  });

  it('finds the last line past the first read from the end', async () => {
    const log = openAuditLog(dir);
    const long = { ...entry('a', 'attempted'), reference: 'r'.repeat(10_000) };
    await log.append(long);
    await log.append({ ...long, uid: 'b' });
    let last: string | null = null;
    await log.appendAfterLast((lastLine) => {
      last = lastLine;
      return entry('c', 'attempted');
    });
    expect(JSON.parse(last ?? '')).toMatchObject({ uid: 'b', reference: long.reference });
  });

  it('writes nothing and says why when another process holds the audit lock', async () => {
    const log = openAuditLog(dir, { waitMs: 0 });
    await log.append(entry('a', 'attempted'));
    mkdirSync(lockPathFor(dir, AUDIT_LOCK));
    await expect(log.append(entry('b', 'attempted'))).rejects.toMatchObject({
      name: 'PrivacyDeskError',
      message: expect.stringContaining(`is changing the audit trail in ${dir}`),
    });
    expect((await log.list()).map((e) => e.uid)).toEqual(['a']);
  });

  it('creates the file for its owner only', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
  });

  it('keeps an outcome it could not write and writes it, in order, as soon as writing works again', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    const saved = readFileSync(log.path);
    // A folder where the file should be makes every write fail (permissions do not stop root).
    rmSync(log.path);
    mkdirSync(log.path);
    await expect(log.append(entry('a', 'done'))).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED', message: expect.stringContaining('a folder stands where the file should be') });
    await expect(log.append(entry('b', 'attempted'))).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED' });
    expect(log.pendingCount).toBe(1); // the outcome is kept; the refused attempt is not (its act was never sent)
    expect(await log.flushPending()).toBe(1); // still failing: still kept
    rmSync(log.path, { recursive: true });
    writeFileSync(log.path, saved);
    expect(await log.flushPending()).toBe(0);
    await log.append(entry('c', 'attempted'));
    const reading = await log.read();
    expect(reading.entries.map((e) => `${e.uid}:${e.outcome}`)).toEqual(['a:attempted', 'a:done', 'c:attempted']);
    expect(reading.verdict).toMatchObject({ ok: true, entries: 3 });
  });

  it('appends several entries as one chained write, or none of them', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    await log.appendMany([entry('a', 'done'), entry('b', 'attempted'), entry('c', 'attempted')]);
    let reading = await log.read();
    expect(reading.entries.map((e) => `${e.uid}:${e.outcome}`)).toEqual(['a:attempted', 'a:done', 'b:attempted', 'c:attempted']);
    expect(reading.verdict).toMatchObject({ ok: true, entries: 4 });
    const saved = readFileSync(log.path);
    rmSync(log.path);
    mkdirSync(log.path);
    await expect(log.appendMany([entry('b', 'done'), entry('d', 'attempted')])).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED' });
    expect(log.pendingCount).toBe(1); // b's outcome is kept; d's attempt is not (d is never sent)
    rmSync(log.path, { recursive: true });
    writeFileSync(log.path, saved);
    await log.appendMany([entry('e', 'attempted')]);
    reading = await log.read();
    expect(reading.entries.map((e) => `${e.uid}:${e.outcome}`).slice(-2)).toEqual(['b:done', 'e:attempted']);
    expect(reading.verdict).toMatchObject({ ok: true, entries: 6 });
  });

  it('writes a kept outcome before the next entry', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a', 'attempted'));
    const saved = readFileSync(log.path);
    rmSync(log.path);
    mkdirSync(log.path);
    await expect(log.append(entry('a', 'done'))).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED' });
    rmSync(log.path, { recursive: true });
    writeFileSync(log.path, saved);
    await log.append(entry('b', 'attempted'));
    expect((await log.read()).entries.map((e) => `${e.uid}:${e.outcome}`)).toEqual(['a:attempted', 'a:done', 'b:attempted']);
    expect(log.pendingCount).toBe(0);
  });

  it('is empty before the first entry', async () => {
    expect(await openAuditLog(dir).list()).toEqual([]);
  });
});

import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, ChainVerdict } from '../shared/audit';
import { wordInEnglish } from '../shared/messages';
import type { AuditAnchorRecord } from './audit-anchor';
import { openAuditLog } from './audit-log';
import { memoryAnchor } from './test/memory-anchor';

/**
 * A crash between the anchor's update and the file's write is told from a removal as far as the evidence goes:
 * a torn fragment of the very write the anchor announced is a crash, and the trail passes (saying so); a write that
 * landed and is gone is a removal; a write that is simply not there, with nothing on disk to tell, is inconclusive.
 */

describe('the anchor after a crash', () => {
  let dir: string;
  let anchor: ReturnType<typeof memoryAnchor>;
  let clock: number;
  const now = () => (clock += 1000);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'anchor-crash-'));
    anchor = memoryAnchor();
    clock = Date.parse('2026-11-22T17:00:00.000Z');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const trail = () => join(dir, 'audit.jsonl');
  const open = () => openAuditLog(dir, { anchor: anchor.store, now });
  const entry = (uid: string, outcome: AuditEntry['outcome'] = 'attempted'): AuditEntry => ({
    at: new Date(clock).toISOString(), actId: `act-${uid}`, action: 'delete', uid, profileId: 'p', profileName: 'P', baseUrl: 'https://p.example.com', outcome, via: 'app', operator: 'dpo', appVersion: 't',
  });
  const said = (verdict: ChainVerdict) => (verdict.ok ? '' : verdict.message);
  const crashes = (verdict: ChainVerdict) => (verdict.anchor?.crashes ?? []).map((text) => wordInEnglish(text));

  /**
   * Runs `write`, then puts the data folder back as a crash during it would leave it: the anchor as it was stored just
   * before the write landed, and the file as before with `torn` of the write's bytes after it (no newline).
   */
  async function crashDuring(write: () => Promise<void>, torn: (bytes: Buffer) => Buffer): Promise<AuditAnchorRecord> {
    const before = readFileSync(trail());
    const from = anchor.history.length;
    await write();
    const after = readFileSync(trail());
    const announced = anchor.history[from];
    if (!announced?.next) throw new Error('the write did not announce itself to the anchor');
    writeFileSync(trail(), Buffer.concat([before, torn(after.subarray(before.length))]));
    anchor.set(announced);
    return announced;
  }

  it('a write torn by a crash: its fragment is set aside, verify says a crash cut it short and passes', async () => {
    const log = open();
    await log.append(entry('a'));
    const announced = await crashDuring(() => log.append(entry('b')), (bytes) => bytes.subarray(0, 150));

    const restarted = open();
    const reading = await restarted.read();
    expect(reading.setAside?.bytes).toBe(150);
    expect(reading.verdict).toMatchObject({ ok: true, entries: 1 });
    expect(crashes(reading.verdict)).toEqual([`A write was cut short by a crash at ${announced.at} (its fragment is in ${reading.setAside?.path}): nothing of it reached the trail.`]);

    // The next act records what it found, and verify keeps saying it, still passing.
    await restarted.append(entry('c'));
    const later = await open().verify();
    expect(later).toMatchObject({ ok: true, entries: 2, anchor: { findings: 1 } });
    expect(crashes(later)).toEqual([expect.stringMatching(/^On \S+, a write found: A write was cut short by a crash at \S+ \(its fragment is in .*audit\.jsonl\.torn-\S+\): nothing of it reached the trail\.$/)]);
  });

  it('a group write torn in its second line: its first entry reached the trail, the rest did not', async () => {
    const log = open();
    await log.append(entry('a'));
    const announced = await crashDuring(
      () => log.appendMany([entry('b'), entry('c'), entry('d')]),
      (bytes) => bytes.subarray(0, bytes.indexOf(0x0a) + 1 + 90),
    );
    const reading = await open().read();
    expect(reading.verdict).toMatchObject({ ok: true, entries: 2 });
    expect(crashes(reading.verdict)).toEqual([`A write was cut short by a crash at ${announced.at} (its fragment is in ${reading.setAside?.path}): entry 2 reached the trail, entries 3 to 4 did not.`]);
  });

  it('a crash before any byte reached the file cannot be told from a removal: inconclusive, and verify fails', async () => {
    const log = open();
    await log.append(entry('a'));
    const announced = await crashDuring(() => log.append(entry('b')), () => Buffer.alloc(0));
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'unlanded', line: 2 });
    expect(said(verdict)).toBe(
      `Inconclusive: a write of entry 2, announced to the anchor on ${announced.at} and never confirmed, is not in the trail (it ends at entry 1), and no fragment of it was found. Either Privacy Desk stopped before writing it (a crash, a power cut) or it was written and removed since; nothing here tells which.`,
    );
    // It stays so after later writes: recorded, not forgotten.
    await open().append(entry('c'));
    expect(await open().verify()).toMatchObject({ ok: false, kind: 'unlanded', anchor: { findings: 1 } });
  });

  it('a fragment too short to tell which write it comes from is named, and the verdict stays inconclusive', async () => {
    const log = open();
    await log.append(entry('a'));
    await crashDuring(() => log.append(entry('b')), (bytes) => bytes.subarray(0, 20));
    const reading = await open().read();
    expect(reading.verdict).toMatchObject({ ok: false, kind: 'unlanded' });
    expect(said(reading.verdict)).toContain(`the only fragment that may be its start (20 bytes, in ${reading.setAside?.path}) is too short to tell`);
  });

  it('the fragment of an earlier crash is not taken for this one', async () => {
    const log = open();
    await log.append(entry('a'));
    await crashDuring(() => log.append(entry('b')), (bytes) => bytes.subarray(0, 150));
    const restarted = open();
    await restarted.read(); // the first crash's fragment is set aside
    await crashDuring(() => restarted.append(entry('b-again')), () => Buffer.alloc(0));
    expect(readdirSync(dir).filter((name) => name.startsWith('audit.jsonl.torn-'))).toHaveLength(1);
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'unlanded' });
    expect(said(verdict)).toContain('no fragment of it was found');
  });

  it('entries removed from the end are a removal, said with their count', async () => {
    const log = open();
    await log.append(entry('a'));
    await log.append(entry('a', 'done'));
    await log.append(entry('b'));
    await log.settle();
    const lines = readFileSync(trail(), 'utf8').split('\n');
    writeFileSync(trail(), `${lines[0]}\n`);
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'rolled-back' });
    expect(said(verdict)).toMatch(/^The last 2 entries were removed: the trail ends at entry 1, but the keychain’s anchor held entry 3 /);
  });

  it('the last write removed is a removal, not a crash, even with a forged fragment beside it', async () => {
    const log = open();
    await log.append(entry('a'));
    await log.append(entry('b'));
    await log.settle();
    const text = readFileSync(trail(), 'utf8');
    const [first, second] = text.split('\n');
    writeFileSync(trail(), `${first}\n`);
    writeFileSync(join(dir, 'audit.jsonl.torn-2026-11-22T17-00-10-000Z'), (second ?? '').slice(0, 120));
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'rolled-back' });
    expect(said(verdict)).toMatch(/^The last entry was removed: the trail ends at entry 1, but the keychain’s anchor held entry 2 /);
  });

  it('a burst of writes costs the anchor one update each, and one more for the last: the next announcement says the previous write landed', async () => {
    const log = open();
    for (const uid of ['a', 'b', 'c', 'd', 'e']) await log.append(entry(uid));
    expect(anchor.history.map((record) => (record.next ? `announce ${record.next.seq}` : `landed ${record.head.seq}`))).toEqual(['announce 1', 'announce 2', 'announce 3', 'announce 4', 'announce 5']);
    await log.settle();
    expect(anchor.history.at(-1)).toMatchObject({ head: { seq: 5 } });
    expect(anchor.history.at(-1)?.next).toBeUndefined();
    // Once another writer has been there, the confirmation is theirs to give: never written over their announcement.
    await log.append(entry('f'));
    await open().append(entry('g'));
    const before = anchor.history.length;
    await log.settle();
    expect(anchor.history.length).toBe(before);
  });

  it('a last write taken out before the anchor was told it landed is inconclusive, not a removal and not a crash', async () => {
    const log = open();
    await log.append(entry('a'));
    await log.append(entry('b'));
    const [first] = readFileSync(trail(), 'utf8').split('\n');
    writeFileSync(trail(), `${first}\n`);
    await log.settle(); // the file is no longer as the write left it: nothing is confirmed
    expect(await open().verify()).toMatchObject({ ok: false, kind: 'unlanded' });
  });

  it('a trail emptied is a removal of all its entries', async () => {
    const log = open();
    await log.append(entry('a'));
    await log.append(entry('b'));
    await log.settle();
    writeFileSync(trail(), '');
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'rolled-back' });
    expect(said(verdict)).toMatch(/^The trail holds no chained entry, but the keychain’s anchor held entry 2 .*: all of its entries were removed \(the file deleted, emptied or replaced\)\.$/);
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, ChainVerdict } from '../shared/audit';
import { isPrivacyDeskError } from '../shared/errors';
import { wordInEnglish } from '../shared/messages';
import { acknowledgeFinding } from './audit-anchor-acknowledge';
import { settleAnchorConfirmations } from './audit-anchor-confirm';
import { describeAnchor } from './audit-anchor-verdict';
import { openAuditLog } from './audit-log';
import { memoryAnchor } from './test/memory-anchor';

/** An operator acknowledges an anchor finding with a typed reason, as a chained entry; verify then passes and says who, when and why. */
describe('acknowledging an anchor finding', () => {
  let dir: string;
  let anchor: ReturnType<typeof memoryAnchor>;
  let clock: number;
  const now = () => (clock += 1000);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'anchor-ack-'));
    anchor = memoryAnchor();
    clock = Date.parse('2026-11-22T17:00:00.000Z');
  });
  // A write's anchor confirmation (a moment after it) lands before the folder goes: removing it under that write
  // failed with ENOTEMPTY on a busy machine.
  afterEach(async () => {
    await settleAnchorConfirmations();
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });

  const trail = () => join(dir, 'audit.jsonl');
  const open = () => openAuditLog(dir, { anchor: anchor.store, now });
  const who = { operator: 'dpo-anna', via: 'cli' as const, appVersion: 't', now };
  const entry = (uid: string): AuditEntry => ({ at: new Date(clock).toISOString(), actId: `act-${uid}`, action: 'delete', uid, profileId: 'p', profileName: 'P', baseUrl: 'https://p.example.com', outcome: 'attempted', via: 'app' });
  const REASON = 'Power cut in the server room on 22 November (incident INC-1042); no act was under way.';

  /** A write announced to the anchor that never reached the file (the writer stopped in between): an open, inconclusive finding. */
  async function unlandedWrite(uid: string): Promise<string> {
    const log = open();
    const before = readFileSync(trail());
    const from = anchor.history.length;
    await log.append(entry(uid));
    writeFileSync(trail(), before);
    anchor.set(anchor.history[from] as NonNullable<ReturnType<typeof anchor.get>>);
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'unlanded' });
    return verdict.anchor?.open?.[0]?.finding ?? '';
  }
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => null, (e: unknown) => e);
    if (!isPrivacyDeskError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
    return { code: error.code, said: error.text ? wordInEnglish(error.text) : error.message };
  };

  it('after an acknowledgement verify passes and says who acknowledged which finding, when and why; the finding stays on record', async () => {
    await open().append(entry('a'));
    const finding = await unlandedWrite('b');
    expect(finding).toMatch(/^[0-9a-f]{12}$/);

    const verdict = await acknowledgeFinding(open(), { finding, reason: `  ${REASON}  ` }, who);
    expect(verdict).toMatchObject({ ok: true, entries: 2, anchor: { findings: 1, acknowledged: [{ finding, kind: 'unlanded', by: 'dpo-anna', reason: REASON, line: 2 }] } });
    expect(verdict.anchor?.open).toBeUndefined();
    const [said] = describeAnchor(verdict.anchor).slice(1);
    expect(said).toMatch(new RegExp(`^1 finding acknowledged on 2026-11-22T\\S+ by dpo-anna: ${REASON.replace(/[().]/g, '\\$&')}$`));

    // The acknowledgement is a chained entry like any act: who, when, which finding and why.
    const last = JSON.parse(readFileSync(trail(), 'utf8').trim().split('\n').at(-1) ?? '{}') as AuditEntry;
    expect(last).toMatchObject({ format: 2, seq: 2, action: 'acknowledge', outcome: 'acknowledged', operator: 'dpo-anna', via: 'cli', acknowledgement: { finding, kind: 'unlanded', reason: REASON, problem: expect.stringMatching(/^Inconclusive: a write of entry 2/) } });
    // Later checks keep saying it.
    expect(await open().verify()).toMatchObject({ ok: true, anchor: { acknowledged: [{ finding }] } });
  });

  it('a finding not acknowledged keeps verify failing', async () => {
    await open().append(entry('a'));
    const first = await unlandedWrite('b');
    await open().append(entry('c')); // records the first finding
    const second = await unlandedWrite('d');
    expect(second).not.toBe(first);
    const verdict = await acknowledgeFinding(open(), { finding: second, reason: REASON }, who);
    expect(verdict).toMatchObject({ ok: false, kind: 'unlanded', anchor: { acknowledged: [{ finding: second }], open: [{ finding: first }] } });
    expect((await acknowledgeFinding(open(), { finding: first, reason: REASON }, who)).ok).toBe(true);
  });

  it('takes a typed reason and a finding verify lists as open, and writes nothing otherwise', async () => {
    await open().append(entry('a'));
    const finding = await unlandedWrite('b');
    const size = readFileSync(trail()).length;
    expect(await refusal(acknowledgeFinding(open(), { finding, reason: 'ok' }, who))).toEqual({ code: 'INVALID_INPUT', said: expect.stringMatching(/^Say why you acknowledge this finding, in at least 10 characters/) });
    expect(await refusal(acknowledgeFinding(open(), { finding, reason: 'line one\nline two is here' }, who))).toMatchObject({ code: 'INVALID_INPUT', said: expect.stringContaining('write it on one line') });
    expect(await refusal(acknowledgeFinding(open(), { finding: 'abcdefabcdef', reason: REASON }, who))).toMatchObject({ code: 'INVALID_INPUT', said: expect.stringMatching(/^No open finding has the id abcdefabcdef/) });
    expect(readFileSync(trail()).length).toBe(size);
  });

  it('a break of the chain itself cannot be acknowledged', async () => {
    await open().append(entry('a'));
    await open().append(entry('b'));
    const text = readFileSync(trail(), 'utf8');
    writeFileSync(trail(), text.replace('"uid":"a"', '"uid":"z"'));
    expect(await refusal(acknowledgeFinding(open(), { finding: 'abcdefabcdef', reason: REASON }, who))).toMatchObject({ code: 'INVALID_INPUT', said: expect.stringMatching(/^The trail’s chain itself is broken \(Line 1 was edited/) });
  });

  it('a proven crash needs no acknowledgement', async () => {
    await open().append(entry('a'));
    const before = readFileSync(trail());
    const from = anchor.history.length;
    await open().append(entry('b'));
    const after = readFileSync(trail());
    writeFileSync(trail(), Buffer.concat([before, after.subarray(before.length, before.length + 120)]));
    anchor.set(anchor.history[from] as NonNullable<ReturnType<typeof anchor.get>>);
    const verdict: ChainVerdict = (await open().read()).verdict;
    expect(verdict).toMatchObject({ ok: true, anchor: { crashes: [expect.anything()] } });
    expect(verdict.anchor?.open).toBeUndefined();
  });

  it('an acknowledgement taken out of the trail is a removal, and the finding is open again', async () => {
    await open().append(entry('a'));
    const finding = await unlandedWrite('b');
    await acknowledgeFinding(open(), { finding, reason: REASON }, who);
    const lines = readFileSync(trail(), 'utf8').trim().split('\n');
    writeFileSync(trail(), `${lines.slice(0, -1).join('\n')}\n`);
    const verdict = await open().verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'rolled-back', anchor: { open: [{ kind: 'rolled-back' }, { finding, kind: 'unlanded' }] } });
  });
});

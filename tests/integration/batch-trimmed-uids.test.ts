import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { readItems } from '../../core/batch/job-state';
import { inspectUid } from '../../sandbox/test-support';
import { pdfText } from '../support/pdf-text';
import { useSandbox } from './helpers';

/**
 * A uid pasted with spaces at an end (" user-000490 ") is another uid than "user-000490": sent as pasted,
 * it is "not found" while the real user keeps all their data. The check says so when the trimmed form
 * exists, and the operator may choose to send the trimmed form: a choice recorded in the job and in the
 * audit entries of those items.
 */
describe('uids with spaces at an end in a batch', () => {
  const sandbox = useSandbox({ users: 30 });
  let dataDir: string;
  let desk: Desk;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-trimmed-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'dpo' });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const plainUids = async (count: number) =>
    (await desk.listUsers('temporary', { page: 1, perPage: 100 })).users.flatMap((user) => (user.uid && /^[\w.@-]+$/.test(user.uid) ? [user.uid] : [])).slice(0, count);

  it('the check names the pasted uids whose trimmed form exists; without the choice they are sent as pasted and the real users keep their data', async () => {
    const [a, b, c, d] = await plainUids(4);
    const preview = await desk.batch.preview({ source: [a, ` ${b} `, `${c}\t`.replace('\t', '  '), ` ${d}`, d].join('\n'), sourceName: 'pasted list' });
    expect(preview.edgeSpaces.count).toBe(3);
    const check = await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    // " d" is left out: its trimmed form is in the list too, and would be erased twice.
    expect(check.trimmable).toMatchObject({ count: 2, sample: [{ line: 2, uid: ` ${b} `, trimmed: b }, { line: 3, uid: `${c}  `, trimmed: c }] });
    expect(check.missingSample).toEqual([` ${b} `, `${c}  `, ` ${d}`]);

    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 2, confirmation: 'DELETE 5' });
    expect(await run.finished).toMatchObject({ counts: { done: 2, notFound: 3 } });
    expect((await inspectUid(sandbox.current, b!)).body).toMatchObject({ state: 'active' });
    const rows = [];
    for await (const row of desk.batch.results(run.batchId)) rows.push(row);
    expect(rows.find((row) => row.line === 2)).toMatchObject({ uid: ` ${b} `, outcome: 'not-found' });
    expect(rows.find((row) => row.line === 2)).not.toHaveProperty('pastedUid');
  });

  it('with the operator’s choice the trimmed uids are sent, and the job and the audit trail record the uid as pasted', async () => {
    const [a, b] = await plainUids(2);
    const preview = await desk.batch.preview({ source: [a, ` ${b} `, ' never-existed '].join('\n'), sourceName: 'pasted list' });
    const start = { draftId: preview.draftId, profileId: 'temporary', action: 'anonymize' as const, logoutFirst: true, concurrency: 2, confirmation: 'ANONYMISE 3', useTrimmed: true, reference: 'REQ-TRIM' };
    // The choice rests on the check: without one, nothing is sent.
    const before = sandbox.current.stats().apiRequests;
    await expect(desk.batch.start(start)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('check the list against the service first') });
    expect(sandbox.current.stats().apiRequests).toBe(before);

    await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    const run = await desk.batch.start(start);
    expect(await run.finished).toMatchObject({ counts: { done: 2, notFound: 1 } });
    expect((await inspectUid(sandbox.current, b!)).body).toMatchObject({ state: 'anonymized' });

    const items = [];
    for await (const item of readItems(dataDir, run.batchId)) items.push(item);
    expect(items.map(({ uid, pastedUid, missingAtCheck }) => ({ uid, pastedUid, missingAtCheck }))).toEqual([
      { uid: a, pastedUid: undefined, missingAtCheck: undefined },
      { uid: b, pastedUid: ` ${b} `, missingAtCheck: undefined },
      // No trimmed form on the service: sent as pasted, as always.
      { uid: ' never-existed ', pastedUid: undefined, missingAtCheck: true },
    ]);
    const rows = [];
    for await (const row of desk.batch.results(run.batchId)) rows.push(row);
    expect(rows[1]).toMatchObject({ uid: b, pastedUid: ` ${b} `, outcome: 'done' });

    const entries = (await desk.readAudit()).entries.filter((entry) => entry.jobId === run.batchId && entry.action !== 'batch');
    const ofB = entries.filter((entry) => entry.uid === b);
    expect(ofB.map((entry) => `${entry.action} ${entry.outcome}`)).toEqual(expect.arrayContaining(['logout attempted', 'anonymize attempted', 'anonymize done']));
    expect(ofB.every((entry) => entry.pastedUid === ` ${b} `)).toBe(true);
    expect(entries.filter((entry) => entry.uid !== b).every((entry) => entry.pastedUid === undefined)).toBe(true);
    expect((await desk.readAudit()).verdict).toMatchObject({ ok: true });

    // The reference's receipt says so too: the uid sent, the uid as pasted (escaped: its spaces show), and why.
    const receipt = (await pdfText((await desk.receipt({ reference: 'REQ-TRIM' }, { locale: 'en' })).content)).text;
    expect(receipt).toContain('uid as pasted');
    expect(receipt).toContain(`" ${b} "`);
    expect(receipt).toContain('the operator chose to send the uid above');
    // A uid whose spaces could be miscounted is quoted where it is drawn.
    expect(receipt).toContain('“ never-existed ”');
  });
});

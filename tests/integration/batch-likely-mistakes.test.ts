import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { readItems } from '../../core/batch/job-state';
import { inspectUid } from '../../sandbox/test-support';
import { useSandbox } from './helpers';

/**
 * The check's "likely mistake": a pasted uid that is not on the service while one that differs from it only by
 * what nobody sees — spaces or invisible characters at an end (a trailing ZWSP, an NBSP), invisible characters
 * inside, capitals or how accents are encoded — is. Said with the uid that exists. Only the ends are offered
 * trimmed (one explicit, recorded choice); the others are called out, never replaced: another uid that differs
 * in capitals may be another person.
 */
describe('likely mistakes in a batch list', () => {
  const sandbox = useSandbox({ users: 500 });
  let dataDir: string;
  let desk: Desk;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-lookalikes-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'dpo' });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
    const created = await fetch(`${sandbox.current.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: 'marie.curie@example.org', full_name: 'Marie Curie' }) });
    expect(created.status).toBe(201);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const LIST = [
    'user-000020', // exists
    'user-000302\u200b', // a trailing zero-width space
    ' user-000490 ', // spaces at both ends
    'user-000031\u00a0', // a trailing no-break space
    'jean\u00a0dupont', // a no-break space inside: "jean dupont" exists
    'Marie.Curie@example.org', // capitals: "marie.curie@example.org" exists
    'ZOË.MÜLLER', // capitals: "zoë.müller" exists
    'zoe\u0308.müller', // the same letters, the accent written as a combining mark
    'never-existed-7',
  ];

  it('calls each out with the uid that exists; only the ends are offered trimmed', async () => {
    const preview = await desk.batch.preview({ source: LIST.join('\n'), sourceName: 'pasted list' });
    const check = await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    expect(check).toMatchObject({ existing: 1, missing: 8 });
    expect(check.trimmable).toMatchObject({
      count: 3,
      sample: [
        { line: 2, uid: 'user-000302\u200b', trimmed: 'user-000302' },
        { line: 3, uid: ' user-000490 ', trimmed: 'user-000490' },
        { line: 4, uid: 'user-000031\u00a0', trimmed: 'user-000031' },
      ],
    });
    expect(check.lookalikes).toEqual({
      count: 4,
      sample: [
        { line: 5, uid: 'jean\u00a0dupont', why: 'invisible', onService: ['jean dupont'] },
        { line: 6, uid: 'Marie.Curie@example.org', why: 'case', onService: ['marie.curie@example.org'] },
        { line: 7, uid: 'ZOË.MÜLLER', why: 'case', onService: ['zoë.müller'] },
        { line: 8, uid: 'zoe\u0308.müller', why: 'case', onService: ['zoë.müller'] },
      ],
    });
    // What the check says of the list as it would be sent with the trimmed uids: those three exist, the rest do not.
    expect(check.trimmable.whenTrimmed).toEqual({
      existing: 4,
      missing: 5,
      missingSample: ['jean\u00a0dupont', 'Marie.Curie@example.org', 'ZOË.MÜLLER', 'zoe\u0308.müller', 'never-existed-7'],
      firstUids: ['user-000020', 'user-000302', 'user-000490'],
      lastUids: ['ZOË.MÜLLER', 'zoe\u0308.müller', 'never-existed-7'],
    });
  });

  it('a lookalike whose twin is in the list too is no mistake; a trimmed form listed too is not offered', async () => {
    const preview = await desk.batch.preview({ source: ['Marie.Curie@example.org', 'marie.curie@example.org', 'user-000302\u200b', 'user-000302'].join('\n'), sourceName: 'pasted list' });
    const check = await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    expect(check.lookalikes).toEqual({ count: 0, sample: [] });
    expect(check.trimmable).toMatchObject({ count: 0, sample: [] });
  });

  it('with the operator’s choice, a uid with a trailing ZWSP is sent trimmed and recorded as pasted; a case twin is never sent in its place', async () => {
    const preview = await desk.batch.preview({ source: LIST.join('\n'), sourceName: 'pasted list' });
    await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 2, confirmation: 'DELETE 9', useTrimmed: true });
    expect(await run.finished).toMatchObject({ counts: { done: 4, notFound: 5 } });
    expect((await inspectUid(sandbox.current, 'user-000302')).body).toMatchObject({ state: 'deleted' });
    expect((await inspectUid(sandbox.current, 'marie.curie@example.org')).body).toMatchObject({ state: 'active' });
    expect((await inspectUid(sandbox.current, 'zoë.müller')).body).toMatchObject({ state: 'active' });
    expect((await inspectUid(sandbox.current, 'jean dupont')).body).toMatchObject({ state: 'active' });
    const items = [];
    for await (const item of readItems(dataDir, run.batchId)) items.push(item);
    expect(items.find((item) => item.line === 2)).toMatchObject({ uid: 'user-000302', pastedUid: 'user-000302\u200b' });
    expect(items.find((item) => item.line === 6)).toMatchObject({ uid: 'Marie.Curie@example.org', missingAtCheck: true });
    expect(items.find((item) => item.line === 6)).not.toHaveProperty('pastedUid');
    const entries = (await desk.readAudit()).entries.filter((entry) => entry.jobId === run.batchId && entry.uid === 'user-000302');
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.pastedUid === 'user-000302\u200b')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { gateFor, inspectUser, login, recordingFetch, useSandbox } from './helpers';

describe('log out, then erase, then verify — through the gate against the sandbox', () => {
  const sandbox = useSandbox({ users: 60 });

  it.each([
    ['anonymize', 'anonymized'],
    ['delete', 'deleted'],
  ] as const)('%s: ends the sessions, erases, and verifies that the old uid no longer resolves', async (action, state) => {
    const uid = 'alice@example.org';
    await login(sandbox.current, uid);
    expect((await inspectUser(sandbox.current, uid))?.sessionCount).toBeGreaterThan(0);
    const recorder = recordingFetch();
    const { gate, auditEntries } = gateFor(sandbox.current, { fetch: recorder.fetch });

    const result = await gate.erase({ action, uid, confirmUid: uid, reference: 'DSR-1' });

    expect(result).toMatchObject({ action, uid, outcome: 'done', status: 200, logout: { outcome: 'done', status: 200 }, verification: 'verified', verificationStatus: 404 });
    expect(await inspectUser(sandbox.current, uid)).toMatchObject({ state, sessionCount: 0 });
    // The logout left first, then the erasure, then the same confirmed erasure once more: nothing else was touched.
    const sent = recorder.apiRequests().map((r) => `${r.method} ${new URL(r.url).pathname}`);
    const erasure = action === 'anonymize' ? 'POST /api/v1/users/alice%40example.org/anonymize' : 'DELETE /api/v1/users/alice%40example.org';
    expect(sent).toEqual([`POST /auth/logout/${sandbox.current.credentials.applicationName}`, erasure, erasure]);
    expect(auditEntries.map((e) => `${e.action} ${e.outcome}`)).toEqual(['logout attempted', 'logout done', `${action} attempted`, `${action} done`, `${action} attempted`, `${action} verification`]);
    expect(new Set(auditEntries.map((e) => e.actId)).size).toBe(1);
    expect(auditEntries.at(-1)).toMatchObject({ verification: 'verified', status: 404, reference: 'DSR-1' });
  });

  it('without logoutFirst an anonymised user keeps their sessions; the check still verifies', async () => {
    const uid = 'bob+news@example.org';
    await login(sandbox.current, uid);
    const sessions = (await inspectUser(sandbox.current, uid))?.sessionCount;
    const { gate, auditEntries } = gateFor(sandbox.current);
    const result = await gate.erase({ action: 'anonymize', uid, confirmUid: uid, logoutFirst: false });
    expect(result.logout).toBeUndefined();
    expect(result.verification).toBe('verified');
    expect(await inspectUser(sandbox.current, uid)).toMatchObject({ state: 'anonymized', sessionCount: sessions });
    expect(auditEntries.some((e) => e.action === 'logout')).toBe(false);
  });

  it('when the service fails the check (5xx), the result says could not check and the erasure stands', async () => {
    const uid = 'team/lead';
    let erasures = 0;
    // The second erasure request (the check) meets a 503 instead of the service.
    const { gate, auditEntries } = gateFor(sandbox.current, {
      fetch: async (input, init) => {
        if (String(input).includes('/api/v1/users/') && ++erasures === 2) return new Response('{"error":"unavailable"}', { status: 503, headers: { 'content-type': 'application/json' } });
        return globalThis.fetch(input, init);
      },
    });
    const result = await gate.erase({ action: 'delete', uid, confirmUid: uid });
    expect(result).toMatchObject({ outcome: 'done', verification: 'could-not-check', verificationStatus: 503 });
    expect((await inspectUser(sandbox.current, uid))?.state).toBe('deleted');
    expect(auditEntries.at(-1)).toMatchObject({ outcome: 'verification', verification: 'could-not-check', errorCode: 'SERVER_ERROR', status: 503 });
  });
});

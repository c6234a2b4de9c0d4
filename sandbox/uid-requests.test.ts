import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type UidRequest } from './server';
import { api, inspectUid, tokenFor, userPath } from './test-support';
import { MAX_REQUESTS_PER_UID, UidRequestLog } from './uid-requests';

const START = Date.parse('2026-11-21T12:00:00Z');

describe('the per-uid request log and the lostAnswerRate fault', () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 20, now: () => START });
    token = await tokenFor(sandbox, 'authentication');
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox.close());

  /** `bearer` null: no Authorization header. */
  const anonymize = (uid: string, bearer: string | null = token): Promise<Response> =>
    api(sandbox, 'POST', `${userPath(uid)}/anonymize`, bearer ?? undefined);
  const erase = (uid: string): Promise<Response> => api(sandbox, 'DELETE', userPath(uid), token);

  async function logout(uid: string, secret = sandbox.credentials.apiSecret): Promise<Response> {
    const signed = await new SignJWT({ sub: uid, iat: Math.floor(sandbox.now() / 1000) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
    return fetch(`${sandbox.url}/auth/logout/${sandbox.credentials.applicationName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: signed }),
    });
  }

  const requestsOf = async (uid: string): Promise<{ status: number; requests: UidRequest[] }> => {
    const { status, body } = await inspectUid(sandbox, uid);
    return { status, requests: body.requests as UidRequest[] };
  };
  const summary = (requests: UidRequest[]) => requests.map(({ act, method, status, answered }) => ({ act, method, status, answered }));

  it('records each anonymise, delete and logout in order, per uid, as the route answered it', async () => {
    const uid = 'mixed /?#% ü+';
    expect((await logout(uid)).status).toBe(200);
    expect((await logout(uid, 'a'.repeat(64))).status).toBe(400);
    expect((await anonymize(uid, null)).status).toBe(401);
    expect((await anonymize(uid)).status).toBe(200);
    expect((await erase(uid)).status).toBe(404);
    expect((await erase('alice@example.org')).status).toBe(200);

    const logged = sandbox.requestLog(uid);
    expect(summary(logged)).toEqual([
      { act: 'logout', method: 'POST', status: 200, answered: true },
      { act: 'logout', method: 'POST', status: 400, answered: true },
      { act: 'anonymize', method: 'POST', status: 401, answered: true },
      { act: 'anonymize', method: 'POST', status: 200, answered: true },
      { act: 'delete', method: 'DELETE', status: 404, answered: true },
    ]);
    const seqs = logged.map((entry) => entry.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(logged.every((entry) => entry.at === new Date(START).toISOString())).toBe(true);
    // The same through the route, for a CLI under test in another process.
    expect(await requestsOf(uid)).toEqual({ status: 200, requests: logged });
    // Another uid has its own log, later in the sandbox-wide order.
    const alice = sandbox.requestLog('alice@example.org');
    expect(summary(alice)).toEqual([{ act: 'delete', method: 'DELETE', status: 200, answered: true }]);
    expect(alice[0]!.seq).toBeGreaterThan(Math.max(...seqs));
  });

  it('shows the requests of a uid that never existed, with the 404', async () => {
    expect((await erase('never-existed')).status).toBe(404);
    expect((await anonymize('never-existed')).status).toBe(404);
    const { status, requests } = await requestsOf('never-existed');
    expect(status).toBe(404);
    expect(summary(requests)).toEqual([
      { act: 'delete', method: 'DELETE', status: 404, answered: true },
      { act: 'anonymize', method: 'POST', status: 404, answered: true },
    ]);
    expect(await requestsOf('never-asked')).toEqual({ status: 404, requests: [] });
  });

  it('takes the sandbox clock for `at`', async () => {
    sandbox.advanceClock(90);
    await erase('alice@example.org');
    expect(sandbox.requestLog('alice@example.org')[0]?.at).toBe(new Date(sandbox.now()).toISOString());
  });

  it('does not record requests the faults stopped before the route (429, 5xx, dropped)', async () => {
    sandbox.setFaults({ errorRate: 1 });
    expect([500, 502, 503]).toContain((await erase('alice@example.org')).status);
    sandbox.setFaults({ errorRate: 0, dropRate: 1 });
    await expect(erase('alice@example.org')).rejects.toThrow();
    sandbox.setFaults({ dropRate: 0, rateLimit: 1 });
    expect((await erase('jean dupont')).status).toBe(200);
    expect((await erase('alice@example.org')).status).toBe(429);
    expect(sandbox.requestLog('alice@example.org')).toEqual([]);
    expect((await inspectUid(sandbox, 'alice@example.org')).body.state).toBe('active');
  });

  it('is cleared by reset, and its seq never goes back', async () => {
    await erase('alice@example.org');
    const before = sandbox.requestLog('alice@example.org')[0]!.seq;
    await fetch(`${sandbox.url}/sandbox/reset`, { method: 'POST' });
    expect(sandbox.requestLog('alice@example.org')).toEqual([]);
    expect((await requestsOf('alice@example.org')).requests).toEqual([]);
    await erase('alice@example.org');
    expect(sandbox.requestLog('alice@example.org')[0]!.seq).toBeGreaterThan(before);
  });

  it(`keeps the last ${MAX_REQUESTS_PER_UID} requests of a uid`, async () => {
    for (let i = 0; i < MAX_REQUESTS_PER_UID + 5; i += 1) expect((await erase('nobody')).status).toBe(404);
    const logged = sandbox.requestLog('nobody');
    expect(logged).toHaveLength(MAX_REQUESTS_PER_UID);
    const all = new UidRequestLog();
    for (let i = 0; i < MAX_REQUESTS_PER_UID + 5; i += 1) all.record('x', { method: 'DELETE', act: 'delete', status: 404, answered: true, at: '' });
    expect(all.of('x').map((entry) => entry.seq)).toEqual(Array.from({ length: MAX_REQUESTS_PER_UID }, (_, i) => i + 6));
  });

  it('lostAnswerRate 1: the erasure is done, the answer never arrives, and the retry meets a 404', async () => {
    sandbox.setFaults({ lostAnswerRate: 1 });
    await expect(erase('alice@example.org')).rejects.toThrow();
    expect((await inspectUid(sandbox, 'alice@example.org')).body.state).toBe('deleted');
    await expect(anonymize('team/lead')).rejects.toThrow();
    expect((await inspectUid(sandbox, 'team/lead')).body.state).toBe('anonymized');

    // Only an act that took effect loses its answer: the retry's 404 arrives.
    expect((await erase('alice@example.org')).status).toBe(404);
    expect(summary(sandbox.requestLog('alice@example.org'))).toEqual([
      { act: 'delete', method: 'DELETE', status: 200, answered: false },
      { act: 'delete', method: 'DELETE', status: 404, answered: true },
    ]);
    expect(summary((await requestsOf('team/lead')).requests)).toEqual([{ act: 'anonymize', method: 'POST', status: 200, answered: false }]);
    // Logout is not an erasure: its answer is never lost.
    expect((await logout('jean dupont')).status).toBe(200);
    // Refused before the act (no token): answered.
    expect((await anonymize('jean dupont', null)).status).toBe(401);
  });

  it('lostAnswerRate is set like the other faults, and refused out of 0..1', async () => {
    const put = (body: unknown): Promise<Response> =>
      fetch(`${sandbox.url}/sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await (await put({ lostAnswerRate: 0.25 })).json()).toMatchObject({ faults: { lostAnswerRate: 0.25, dropRate: 0 } });
    expect((await put({ faults: { lostAnswerRate: 1.5 } })).status).toBe(400);
    expect(() => sandbox.setFaults({ lostAnswerRate: -1 })).toThrow(/lostAnswerRate/);
    await sandbox.reset();
    expect(await (await fetch(`${sandbox.url}/sandbox/faults`)).json()).toMatchObject({ faults: { lostAnswerRate: 0 } });
  });
});

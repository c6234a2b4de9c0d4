import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CASE_IDS, type ConformanceCaseId, type ConformanceRun } from '../../shared/logout-conformance';
import { LOGOUT_LAPSES, type LogoutLapse } from '../../sandbox/logout-lapses';
import type { ServiceClientOptions } from '../../core/types';
import { failure, gateFor, inspectUser, useSandbox } from './helpers';

const UID = 'alice@example.org';

/** The one sandbox check each case tests: skipping it must turn that case, and only that case, not conformant. */
const BROKEN_BY: Record<Exclude<ConformanceCaseId, 'valid'>, LogoutLapse> = {
  'wrong-secret': 'signature',
  'alg-none': 'alg-none',
  'other-alg': 'other-alg',
  'other-sub': 'sub-ignore-case',
  'sid-only': 'sub-required',
  'no-sub-no-sid': 'sub-required',
  'no-events': 'events',
  'events-without-member': 'events',
  nonce: 'nonce',
  'future-iat': 'future-iat',
  'old-iat': 'old-iat',
  expired: 'exp',
  'wrong-aud': 'aud',
  'wrong-iss': 'iss',
  'no-jti': 'jti-required',
  replay: 'replay',
  oversized: 'size',
  'unknown-crit': 'crit',
};

const verdicts = (run: ConformanceRun) => Object.fromEntries(run.cases.map((one) => [one.id, one.verdict]));
const allConformant = Object.fromEntries(CONFORMANCE_CASE_IDS.map((id) => [id, 'conformant']));

describe('logout conformance run against the sandbox', () => {
  const sandbox = useSandbox({ users: 30 });
  const run = (overrides: Partial<ServiceClientOptions> = {}) => {
    const connection = gateFor(sandbox.current, overrides);
    return { connection, result: connection.gate.logoutConformance({ uid: UID }) };
  };

  it('a sandbox that keeps every rule is conformant on every case, proven by sessions ending or staying open', async () => {
    sandbox.current.setVariants({ logoutLapses: [] });
    const { connection, result } = run();
    const outcome = await result;
    expect(verdicts(outcome)).toEqual(allConformant);
    expect(outcome).toMatchObject({ overall: 'conformant', sessionsChecked: true, counts: { conformant: CONFORMANCE_CASE_IDS.length, 'not-conformant': 0, inconclusive: 0 } });
    const valid = outcome.cases.find((one) => one.id === 'valid');
    expect(valid?.sends).toEqual([expect.objectContaining({ answer: 'accepted', status: 200, sessions: 'ended' })]);
    const wrongSecret = outcome.cases.find((one) => one.id === 'wrong-secret');
    expect(wrongSecret?.sends).toEqual([expect.objectContaining({ answer: 'refused', status: 400, sessions: 'kept', serviceSaid: expect.stringMatching(/signature/) })]);
    expect(outcome.cases.find((one) => one.id === 'replay')?.sends.map((send) => [send.answer, send.sessions])).toEqual([['accepted', 'ended'], ['refused', 'kept']]);
    // Every send is audited before and after, a must-refuse token as a deliberate test; other-sub under the uid it names.
    const sends = outcome.cases.reduce((total, one) => total + one.sends.length, 0);
    expect(connection.auditEntries).toHaveLength(2 * sends);
    expect(connection.auditEntries.filter((entry) => entry.outcome === 'attempted')).toHaveLength(sends);
    expect(connection.auditEntries.filter((entry) => entry.test?.run === 'conformance' && entry.outcome === 'refused')).toHaveLength(17);
    expect(connection.auditEntries.filter((entry) => entry.uid === 'ALICE@EXAMPLE.ORG').map((entry) => entry.outcome)).toEqual(['attempted', 'done']);
    expect(JSON.stringify(outcome)).not.toContain(sandbox.current.credentials.apiSecret);
    // The user's last session is open again only if a case left it: the run ends on a refused token.
    expect((await inspectUser(sandbox.current, UID))?.sessionCount).toBeGreaterThan(0);
  });

  it.each(Object.entries(BROKEN_BY))('a sandbox that skips the check %s breaks is not conformant on that case alone', async (id, lapse) => {
    sandbox.current.setVariants({ logoutLapses: [lapse as LogoutLapse] });
    const outcome = await run().result;
    const broken = CONFORMANCE_CASE_IDS.filter((one) => BROKEN_BY[one as keyof typeof BROKEN_BY] === lapse);
    expect(broken).toContain(id);
    expect(verdicts(outcome)).toEqual({ ...allConformant, ...Object.fromEntries(broken.map((one) => [one, 'not-conformant'])) });
    const docsRule = outcome.cases.some((one) => broken.includes(one.id) && one.source === 'service-docs');
    expect(outcome.overall).toBe(docsRule ? 'not-conformant' : 'conformant');
  });

  it('every sandbox check is tested by some case', () => {
    expect(new Set(Object.values(BROKEN_BY))).toEqual(new Set(LOGOUT_LAPSES));
  });

  it('a valid token refused (a wrong secret on this side) is not conformant, and the run fails on the service’s docs', async () => {
    sandbox.current.setVariants({ logoutLapses: [] });
    const { apiKey } = sandbox.current.credentials;
    const outcome = await run({ credentials: { apiKey, apiSecret: 'another-secret-'.repeat(5) } }).result;
    expect(outcome.cases.find((one) => one.id === 'valid')).toMatchObject({ verdict: 'not-conformant', sends: [{ answer: 'refused', sessions: 'kept' }] });
    expect(outcome.overall).toBe('not-conformant');
  });

  it('the sandbox as it behaves by default meets every rule of the service’s docs; the OIDC and good-practice notes it skips are not conformant', async () => {
    const outcome = await run().result;
    expect(outcome.overall).toBe('conformant');
    const failing = outcome.cases.filter((one) => one.verdict !== 'conformant').map((one) => one.id).sort();
    expect(failing).toEqual(['events-without-member', 'no-events', 'no-jti', 'nonce', 'old-iat', 'oversized', 'replay', 'wrong-iss']);
    expect(outcome.cases.filter((one) => failing.includes(one.id)).every((one) => one.source !== 'service-docs')).toBe(true);
  });

  it('answers that do not judge the token (5xx) are inconclusive, never a failure', async () => {
    sandbox.current.setFaults({ errorRate: 1 });
    const outcome = await run().result;
    expect(new Set(outcome.cases.map((one) => one.verdict))).toEqual(new Set(['inconclusive']));
    expect(outcome.overall).toBe('inconclusive');
    expect(outcome.cases[0]?.sends[0]).toMatchObject({ answer: 'answered', sessions: 'kept' });
  });

  it('a rate-limited service: each 429 is waited out for its Retry-After and the same token sent again, each send audited; the verdicts are those without a limit', async () => {
    sandbox.current.setVariants({ logoutLapses: [] });
    sandbox.current.setFaults({ rateLimit: 2 });
    const waits: number[] = [];
    // The sandbox's rate-limit window runs on its own clock: the run's pause moves it instead of waiting.
    const connection = gateFor(sandbox.current, {
      sleep: async (ms) => {
        waits.push(ms);
        sandbox.current.advanceClock(ms / 1000);
      },
    });
    const outcome = await connection.gate.logoutConformance({ uid: UID });
    expect(verdicts(outcome)).toEqual(allConformant);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((ms) => ms >= 1000 && ms <= 20_000)).toBe(true);
    const judged = outcome.cases.reduce((total, one) => total + one.sends.length, 0);
    const attempts = connection.auditEntries.filter((entry) => entry.outcome === 'attempted');
    expect(attempts).toHaveLength(judged + waits.length);
    expect(connection.auditEntries.filter((entry) => entry.status === 429)).toHaveLength(waits.length);
  });

  it('a uid the sandbox has no session for makes the cases that must end sessions inconclusive', async () => {
    sandbox.current.setVariants({ logoutLapses: [] });
    const connection = gateFor(sandbox.current);
    const outcome = await connection.gate.logoutConformance({ uid: 'nobody-here' });
    expect(outcome.cases.find((one) => one.id === 'valid')).toMatchObject({ verdict: 'inconclusive', sends: [{ answer: 'accepted', sessions: 'no-session' }] });
    expect(outcome.cases.find((one) => one.id === 'nonce')).toMatchObject({ verdict: 'conformant' });
    expect(outcome.overall).toBe('inconclusive');
  });
});

describe('logout conformance run against a live service', () => {
  const sandbox = useSandbox({ users: 30 });
  // A profile off this computer, whose requests this test carries to the sandbox: sandbox routes are never called.
  const live = () => {
    const target = new URL(sandbox.current.url);
    const fetch: ServiceClientOptions['fetch'] = (input, init) => {
      const url = new URL(String(input));
      if (url.pathname.startsWith('/sandbox/')) throw new Error('a sandbox route was called for a live profile');
      url.protocol = target.protocol;
      url.host = target.host;
      return globalThis.fetch(url, init);
    };
    const profile = { id: 'live', name: 'Live', baseUrl: 'https://debate.example', applicationName: sandbox.current.credentials.applicationName };
    return gateFor(sandbox.current, { profile, fetch });
  };

  it('needs the uid typed again: without it nothing is sent or audited', async () => {
    const connection = live();
    const error = await failure(connection.gate.logoutConformance({ uid: UID, confirmUid: 'alice' }));
    expect(error).toMatchObject({ code: 'CONFIRMATION_MISMATCH', outcome: 'not-sent' });
    expect(connection.auditEntries).toEqual([]);
  });

  it('says a refusal, and leaves an acceptance inconclusive about the sessions it could not check', async () => {
    sandbox.current.setVariants({ logoutLapses: [] });
    const outcome = await live().gate.logoutConformance({ uid: UID, confirmUid: UID });
    expect(outcome.sessionsChecked).toBe(false);
    expect(outcome.cases.find((one) => one.id === 'valid')).toMatchObject({ verdict: 'inconclusive', sends: [{ answer: 'accepted', sessions: 'not-checked' }] });
    expect(outcome.cases.find((one) => one.id === 'alg-none')).toMatchObject({ verdict: 'conformant', sends: [{ answer: 'refused', sessions: 'not-checked' }] });
    expect(outcome.cases.find((one) => one.id === 'replay')).toMatchObject({ verdict: 'conformant' });
    expect(outcome.overall).toBe('inconclusive');
  });
});

import { describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import type { AuditEntry } from '../../shared/audit';
import type { LogoutResult } from '../../shared/logout';
import type { ErasureAction, ErasureResult } from '../../shared/users';
import type { AuditLog } from '../audit-log';
import { memoryAudit } from '../test/memory-audit';
import { createErasureGate } from './erasure-gate';
import type { ServiceActs } from './service-acts';

const profile = { id: 'prod-1a2b3c', name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'news' };

const done = (action: ErasureAction, uid: string, status = 200): ErasureResult => ({ action, uid, outcome: 'done', status, requestId: `req-${status}`, completedAt: '2026-11-21T00:00:00.000Z' });
const logoutAnswer = (uid: string, status: number): LogoutResult => ({
  uid,
  outcome: status === 200 ? 'done' : 'refused',
  ...(status === 200 ? {} : { errorCode: 'LOGOUT_REJECTED' as const }),
  status,
  ok: status === 200,
  headers: {},
  body: {},
  elapsedMs: 1,
  token: 'x',
  header: {},
  claims: {},
});
const notFound = () => new PrivacyDeskError({ code: 'NOT_FOUND', status: 404, requestId: 'req-404', message: 'No user with uid “bob” exists in Prod.' });

/** A service like the real one: the first erasure takes effect, every later one finds no such uid. */
function serviceLike(overrides: { repeat?: () => Promise<ErasureResult>; sendLogout?: ServiceActs['sendLogout'] } = {}): ServiceActs & { calls: string[] } {
  const calls: string[] = [];
  let erased = false;
  return {
    calls,
    erase: async (action, uid) => {
      calls.push(`${action}:${uid}`);
      if (!erased) {
        erased = true;
        return done(action, uid);
      }
      if (overrides.repeat) return overrides.repeat();
      throw notFound();
    },
    sendLogout: async (uid, options) => {
      calls.push(`logout:${uid}`);
      return overrides.sendLogout ? overrides.sendLogout(uid, options) : logoutAnswer(uid, 200);
    },
  };
}

const gateWith = (acts: ServiceActs, audit: AuditLog) => createErasureGate({ acts, profile, audit, via: 'cli', operator: 'dpo', appVersion: '9.9.9' });
const steps = (entries: AuditEntry[]) => entries.map((e) => `${e.action} ${e.outcome}${e.verification ? ` ${e.verification}` : ''}`);

describe('log out, then erase, then verify', () => {
  it('by default logs out first, then erases, then repeats the confirmed act to verify: one actId for all six entries', async () => {
    const audit = memoryAudit();
    const acts = serviceLike();
    const result = await gateWith(acts, audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob', reference: 'T-1' });
    expect(acts.calls).toEqual(['logout:bob', 'anonymize:bob', 'anonymize:bob']);
    expect(steps(audit.entries)).toEqual(['logout attempted', 'logout done', 'anonymize attempted', 'anonymize done', 'anonymize attempted', 'anonymize verification verified']);
    expect(new Set(audit.entries.map((e) => e.actId)).size).toBe(1);
    expect(audit.entries.every((e) => e.reference === 'T-1' && e.uid === 'bob')).toBe(true);
    expect(audit.entries.at(-1)).toMatchObject({ status: 404, requestId: 'req-404' });
    expect(audit.entries.at(-1)?.errorCode).toBeUndefined();
    expect(result).toMatchObject({ action: 'anonymize', outcome: 'done', status: 200, logout: { outcome: 'done', status: 200 }, verification: 'verified', verificationStatus: 404 });
  });

  it('with logoutFirst false sends no logout, and still verifies', async () => {
    const audit = memoryAudit();
    const acts = serviceLike();
    const result = await gateWith(acts, audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob', logoutFirst: false });
    expect(acts.calls).toEqual(['delete:bob', 'delete:bob']);
    expect(steps(audit.entries)).toEqual(['delete attempted', 'delete done', 'delete attempted', 'delete verification verified']);
    expect(result.logout).toBeUndefined();
    expect(result.verification).toBe('verified');
  });

  it('a 2xx to the repeated act is "not verified": the uid still resolved after the first answered done', async () => {
    const audit = memoryAudit();
    const result = await gateWith(serviceLike({ repeat: async () => done('delete', 'bob', 204) }), audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob' });
    expect(result).toMatchObject({ verification: 'not-verified', verificationStatus: 204 });
    expect(audit.entries.at(-1)).toMatchObject({ outcome: 'verification', verification: 'not-verified', status: 204 });
  });

  it.each([
    ['a 5xx', new PrivacyDeskError({ code: 'SERVER_ERROR', status: 503, message: 'unavailable' }), 'SERVER_ERROR', 503],
    ['a network failure', new PrivacyDeskError({ code: 'NETWORK', outcome: 'not-sent', message: 'refused connection' }), 'NETWORK', undefined],
    ['a rate limit', new PrivacyDeskError({ code: 'RATE_LIMITED', status: 429, message: 'slow down' }), 'RATE_LIMITED', 429],
    ['a bug', new TypeError('oops'), 'INTERNAL', undefined],
  ] as const)('%s on the repeat is "could not check", and the erasure result still stands', async (_what, error, errorCode, status) => {
    const audit = memoryAudit();
    const result = await gateWith(serviceLike({ repeat: async () => Promise.reject(error) }), audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob' });
    expect(result).toMatchObject({ outcome: 'done', verification: 'could-not-check' });
    expect(audit.entries.at(-1)).toMatchObject({ outcome: 'verification', verification: 'could-not-check', errorCode });
    expect(audit.entries.at(-1)?.status).toBe(status);
  });

  it('a refused logout does not block the confirmed erasure: the result and the audit show it', async () => {
    const audit = memoryAudit();
    const acts = serviceLike({ sendLogout: async (uid) => logoutAnswer(uid, 400) });
    const result = await gateWith(acts, audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob' });
    expect(acts.calls).toEqual(['logout:bob', 'anonymize:bob', 'anonymize:bob']);
    expect(result).toMatchObject({ outcome: 'done', logout: { outcome: 'refused', status: 400, errorCode: 'LOGOUT_REJECTED' }, verification: 'verified' });
    expect(audit.entries[1]).toMatchObject({ action: 'logout', outcome: 'refused', errorCode: 'LOGOUT_REJECTED' });
  });

  it('a logout that fails in transport is recorded with its outcome, and the erasure goes on', async () => {
    const audit = memoryAudit();
    const acts = serviceLike({ sendLogout: async () => Promise.reject(new PrivacyDeskError({ code: 'TIMEOUT', message: 'no answer' })) });
    const result = await gateWith(acts, audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob' });
    expect(result.logout).toEqual({ outcome: 'unknown', errorCode: 'TIMEOUT' });
    expect(steps(audit.entries).slice(0, 3)).toEqual(['logout attempted', 'logout unknown', 'delete attempted']);
  });

  it('when the logout step cannot be audited, nothing more is sent: the erasure is not-sent', async () => {
    const audit = memoryAudit((e) => e.action === 'logout' && e.outcome === 'done');
    const acts = serviceLike();
    await expect(gateWith(acts, audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob' })).rejects.toMatchObject({
      code: 'AUDIT_WRITE_FAILED',
      outcome: 'not-sent',
      message: expect.stringMatching(/^The logout sent first was accepted, but the audit trail \/memory could not record that: .* The user was not anonymised: the anonymisation was not sent\./),
    });
    expect(acts.calls).toEqual(['logout:bob']);
  });

  it('the verification request is not sent without its attempted entry: could not check', async () => {
    let attempts = 0;
    const audit = memoryAudit((e) => e.action === 'delete' && e.outcome === 'attempted' && ++attempts === 2);
    const acts = serviceLike();
    const result = await gateWith(acts, audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob', logoutFirst: false });
    expect(acts.calls).toEqual(['delete:bob']);
    expect(result.verification).toBe('could-not-check');
    expect(audit.entries.at(-1)).toMatchObject({ outcome: 'verification', verification: 'could-not-check', errorCode: 'AUDIT_WRITE_FAILED' });
  });

  it('a refused erasure is not verified and says nothing of a verification', async () => {
    const audit = memoryAudit();
    const acts = serviceLike();
    acts.erase = async (action, uid) => {
      acts.calls.push(`${action}:${uid}`);
      throw notFound();
    };
    await expect(gateWith(acts, audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(acts.calls).toEqual(['logout:bob', 'delete:bob']);
    expect(steps(audit.entries)).toEqual(['logout attempted', 'logout done', 'delete attempted', 'delete refused']);
  });
});

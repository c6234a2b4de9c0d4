import { describe, expect, it } from 'vitest';
import { wordInEnglish } from './messages';
import { extraClaimsProblem, identityClaimsIn, judgeLogout, LOGOUT_LIMITS, logoutOptionsSchema, logoutVerdict } from './logout';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
}

describe('logout option limits', () => {
  it('accepts what a tester needs', () => {
    expect(logoutOptionsSchema.safeParse({ audience: 'a'.repeat(LOGOUT_LIMITS.audienceLength), extraClaims: { sid: 'abc', n: 5, deep: nested(LOGOUT_LIMITS.claimDepth) } }).success).toBe(true);
  });

  it('refuses depth, count, size, long strings and prototype names with a short message', () => {
    const refused: Record<string, unknown>[] = [
      { extraClaims: { deep: nested(LOGOUT_LIMITS.claimDepth + 1) } },
      { extraClaims: { deep: nested(100_000) } },
      { audience: 'a'.repeat(LOGOUT_LIMITS.audienceLength + 1) },
      { jti: 'j'.repeat(LOGOUT_LIMITS.jtiLength + 1) },
      { extraClaims: Object.fromEntries(Array.from({ length: LOGOUT_LIMITS.extraClaimCount + 1 }, (_, i) => [`c${i}`, i])) },
      { extraClaims: { blob: 'é'.repeat(LOGOUT_LIMITS.extraClaimsBytes / 2) } }, // counted in UTF-8 bytes
      { extraClaims: { wide: Array.from({ length: LOGOUT_LIMITS.claimValueCount }, () => 0) } },
      { extraClaims: JSON.parse('{"constructor": {"admin": true}}') as Record<string, unknown> },
      { extraClaims: { prototype: 1 } },
      { expiresInSeconds: LOGOUT_LIMITS.lifetimeSeconds + 1 },
      { issuedAt: -1 },
    ];
    for (const [index, options] of refused.entries()) {
      const parsed = logoutOptionsSchema.safeParse(options);
      expect(parsed.success, `case ${index}`).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0]?.message.length).toBeLessThan(200);
    }
  });

  it('a "__proto__" key never reaches the claims (zod drops it) and cannot change their prototype', () => {
    const parsed = logoutOptionsSchema.parse({ extraClaims: JSON.parse('{"__proto__": {"admin": true}, "sid": "x"}') as Record<string, unknown> });
    expect(Object.getPrototypeOf(parsed.extraClaims)).toBe(Object.prototype);
    expect(parsed.extraClaims).toEqual({ sid: 'x' });
  });

  it('the depth walk stops early instead of recursing (100,000 levels)', () => {
    expect(wordInEnglish(extraClaimsProblem({ deep: nested(100_000) })!)).toMatch(/nested more than/);
  });
});

describe('identity claims', () => {
  it('names the claims a sign-on would read as identity, ignoring case', () => {
    expect(identityClaimsIn({ sid: 'x', Email: 'a@b.c', ROLE: 'admin', admin: true, custom: 1 })).toEqual(['Email', 'ROLE', 'admin']);
    expect(identityClaimsIn(undefined)).toEqual([]);
  });
});

describe('the verdict of a logout test', () => {
  it('is conclusive only when the service judged the token: accepted it, or refused it as a token', () => {
    expect(logoutVerdict('valid', { outcome: 'done' })).toBe('as-expected');
    expect(logoutVerdict('valid', { outcome: 'refused', errorCode: 'LOGOUT_REJECTED' })).toBe('not-as-expected');
    expect(logoutVerdict('wrong-secret', { outcome: 'refused', errorCode: 'LOGOUT_REJECTED' })).toBe('as-expected');
    expect(logoutVerdict('alg-none', { outcome: 'done' })).toBe('not-as-expected');
  });

  it('is inconclusive, never a failure of the service, when the token was not judged', () => {
    for (const testCase of ['valid', 'expired'] as const) {
      // A network error (refused or cut), a timeout, a 5xx, a 429, an unknown application, an unreadable 2xx.
      expect(logoutVerdict(testCase, { outcome: 'not-sent', errorCode: 'NETWORK' })).toBe('inconclusive');
      expect(logoutVerdict(testCase, { outcome: 'unknown', errorCode: 'NETWORK' })).toBe('inconclusive');
      expect(logoutVerdict(testCase, { outcome: 'unknown', errorCode: 'TIMEOUT' })).toBe('inconclusive');
      expect(logoutVerdict(testCase, { outcome: 'unknown', errorCode: 'SERVER_ERROR' })).toBe('inconclusive');
      expect(logoutVerdict(testCase, { outcome: 'refused', errorCode: 'RATE_LIMITED' })).toBe('inconclusive');
      expect(logoutVerdict(testCase, { outcome: 'refused', errorCode: 'APPLICATION_NOT_FOUND' })).toBe('inconclusive');
      expect(logoutVerdict(testCase, { outcome: 'unknown', errorCode: 'UNEXPECTED_RESPONSE' })).toBe('inconclusive');
    }
  });
});

describe('what a logout answer was, and its verdict', () => {
  const refusedIn200 = { outcome: 'unknown' as const, errorCode: 'UNEXPECTED_RESPONSE' as const, status: 200, body: { error: 'invalid_request', error_description: 'The logout token signature does not match the secret key.' } };

  it('a 2xx whose body says the logout failed or was refused is its own answer: inconclusive for every case, never "not judged"', () => {
    expect(judgeLogout('wrong-secret', refusedIn200)).toEqual({ answer: 'says-failed', verdict: 'inconclusive' });
    expect(judgeLogout('valid', { outcome: 'unknown', errorCode: 'UNEXPECTED_RESPONSE', status: 200, body: { success: false } })).toEqual({ answer: 'says-failed', verdict: 'inconclusive' });
  });

  it('tells a 2xx that cannot be read (an HTML page) from one that says it failed', () => {
    expect(judgeLogout('expired', { outcome: 'unknown', errorCode: 'UNEXPECTED_RESPONSE', status: 200, body: '<html>' })).toEqual({ answer: 'answered', verdict: 'inconclusive' });
  });

  it('names every other answer: accepted, refused, answered without judging, no answer', () => {
    expect(judgeLogout('valid', { outcome: 'done', status: 200, body: { success: true } })).toEqual({ answer: 'accepted', verdict: 'as-expected' });
    expect(judgeLogout('alg-none', { outcome: 'done', status: 200 })).toEqual({ answer: 'accepted', verdict: 'not-as-expected' });
    expect(judgeLogout('expired', { outcome: 'refused', errorCode: 'LOGOUT_REJECTED', status: 400 })).toEqual({ answer: 'refused', verdict: 'as-expected' });
    expect(judgeLogout('expired', { outcome: 'unknown', errorCode: 'SERVER_ERROR', status: 503 })).toEqual({ answer: 'answered', verdict: 'inconclusive' });
    expect(judgeLogout('expired', { outcome: 'unknown', errorCode: 'NETWORK' })).toEqual({ answer: 'no-answer', verdict: 'inconclusive' });
  });
});

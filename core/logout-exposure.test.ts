import { describe, expect, it } from 'vitest';
import { WITHHELD_SIGNATURE } from '../shared/logout';
import type { Profile } from '../shared/profile';
import { checkLogoutOptions, exposedToken } from './logout-exposure';

const live: Profile = { id: 'live', name: 'City portal', baseUrl: 'https://debate.example.org', applicationName: 'app' };
const local: Profile = { id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app' };
const built = { token: 'eyJh.eyJz.c2lnbmF0dXJl', header: { alg: 'HS256' }, claims: { sub: 'u' } };

describe('what of a logout token leaves the core', () => {
  it('a live service gets the placeholder signature; loopback keeps the token', () => {
    expect(exposedToken(live, built)).toEqual({ ...built, token: `eyJh.eyJz.${WITHHELD_SIGNATURE}`, signatureWithheld: true });
    expect(exposedToken(local, built)).toBe(built);
    // Results that extend the token keep their other fields.
    expect(exposedToken(live, { ...built, status: 200 })).toMatchObject({ status: 200, signatureWithheld: true });
  });

  it('identity claims are refused for a live service only, as not-sent validation errors', () => {
    expect(() => checkLogoutOptions(live, { extraClaims: { email: 'boss@example.org' } })).toThrowError(/“email”.*live service/);
    try {
      checkLogoutOptions(live, { extraClaims: { role: 'admin' } });
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
    }
    expect(checkLogoutOptions(local, { extraClaims: { email: 'alice@example.org' } })).toEqual({ extraClaims: { email: 'alice@example.org' } });
    expect(checkLogoutOptions(live, { extraClaims: { sid: 'abc' } })).toEqual({ extraClaims: { sid: 'abc' } });
  });
});

import { base64url, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { BACKCHANNEL_LOGOUT_EVENT, buildLogoutToken, verifyLogoutToken, type LogoutTokenContext } from './logout-token';
import { isMessageId, MESSAGES, wordInEnglish } from '../../shared/messages';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const NOW_S = NOW / 1000;
const context: LogoutTokenContext = { apiSecret: 's'.repeat(64), apiKey: 'key-abc', applicationName: 'city-portal', now: () => NOW };
const secret = new TextEncoder().encode(context.apiSecret);
const encode = (value: unknown) => base64url.encode(JSON.stringify(value));

describe('buildLogoutToken', () => {
  it('signs sub, iat, aud and a random jti with HS256 by default', async () => {
    const built = await buildLogoutToken('zoë.müller', undefined, context);
    const { payload, protectedHeader } = await jwtVerify(built.token, secret, { audience: 'city-portal' });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ sub: 'zoë.müller', iat: NOW_S, aud: 'city-portal', jti: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(built.claims).toEqual(payload);
    expect(payload.exp).toBeUndefined();
    expect((await buildLogoutToken('a', undefined, context)).claims.jti).not.toBe(payload.jti);
  });

  it('applies every option; extra claims merge but cannot touch sub', async () => {
    const built = await buildLogoutToken('u1', {
      algorithm: 'HS512', audience: 'other', issuedAt: 1000, expiresInSeconds: 60, jti: 'fixed', includeEvents: true, extraClaims: { sid: 's-1', aud: ['x', 'y'] },
    }, context);
    expect(built.header).toEqual({ alg: 'HS512', typ: 'JWT' });
    expect(built.claims).toEqual({ sub: 'u1', iat: 1000, exp: 1060, jti: 'fixed', aud: ['x', 'y'], sid: 's-1', events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    await expect(buildLogoutToken('u1', { extraClaims: { sub: 'u2' } }, context)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(buildLogoutToken('u1', { expiresInSeconds: -1 }, context)).rejects.toThrow(/The logout token options are not valid: the lifetime is whole seconds from 1 to/);
  });

  it('builds each negative case the way the service must refuse it', async () => {
    const wrongSecret = await buildLogoutToken('u', { negativeCase: 'wrong-secret' }, context);
    await expect(jwtVerify(wrongSecret.token, secret)).rejects.toThrow();
    const none = await buildLogoutToken('u', { negativeCase: 'alg-none' }, context);
    expect(none.token.endsWith('.')).toBe(true);
    expect(none.header).toEqual({ alg: 'none', typ: 'JWT' });
    expect((await buildLogoutToken('u', { negativeCase: 'expired' }, context)).claims).toMatchObject({ iat: NOW_S - 7200, exp: NOW_S - 3600 });
    expect((await buildLogoutToken('u', { negativeCase: 'missing-sub' }, context)).claims).not.toHaveProperty('sub');
    expect((await buildLogoutToken('u', { negativeCase: 'wrong-aud' }, context)).claims.aud).toBe('not-city-portal');
  });
});

describe('verifyLogoutToken', () => {
  it('accepts a good token, with the API key as audience too', async () => {
    expect(await verifyLogoutToken((await buildLogoutToken('u', {}, context)).token, context)).toMatchObject({ valid: true, problems: [] });
    expect((await verifyLogoutToken((await buildLogoutToken('u', { audience: 'key-abc', algorithm: 'HS384' }, context)).token, context)).valid).toBe(true);
  });

  it('lists every problem in plain words', async () => {
    const built = await buildLogoutToken('u', { negativeCase: 'expired', audience: 'nope', extraClaims: {} }, context);
    const result = await verifyLogoutToken(built.token, context);
    expect(result.valid).toBe(false);
    expect(result.problems.join('\n')).toMatch(/expired at 2026-11-21T11:00:00\.000Z \(60 min ago\)/);
    expect(result.problems.join('\n')).toMatch(/audience “nope” is neither the application name “city-portal” nor this profile’s API key/);

    const future = await verifyLogoutToken((await buildLogoutToken('u', { issuedAt: NOW_S + 3600 }, context)).token, context);
    expect(future.problems).toEqual([expect.stringMatching(/issued in the future .*60 min ahead/)]);
    const noSub = await verifyLogoutToken((await buildLogoutToken('u', { negativeCase: 'missing-sub' }, context)).token, context);
    expect(noSub.problems).toEqual([expect.stringMatching(/no “sub” claim/)]);
  });

  it('decodes and explains tokens it cannot trust', async () => {
    expect(await verifyLogoutToken('abc.def', context)).toMatchObject({ valid: false, problems: [expect.stringMatching(/three parts.*has 2/)] });
    expect((await verifyLogoutToken('!!.??.x', context)).problems).toHaveLength(2);
    const rs = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ sub: 'u' })}.abc`;
    expect(await verifyLogoutToken(rs, context)).toMatchObject({ valid: false, header: { alg: 'RS256' }, claims: { sub: 'u' }, problems: [expect.stringMatching(/“RS256” is not accepted/)] });
    const none = await verifyLogoutToken(`${encode({ alg: 'none' })}.${encode({ sub: 'u' })}.`, context);
    expect(none.problems).toEqual([expect.stringMatching(/not signed/)]);
    const other = await verifyLogoutToken((await buildLogoutToken('u', {}, { ...context, apiSecret: 'another-secret' })).token, context);
    expect(other).toMatchObject({ valid: false, claims: { sub: 'u' }, problems: [expect.stringMatching(/different secret/)] });
  });
});

describe('verifyLogoutToken: every problem is a message of the catalogue', () => {
  it('meets every verify.* message, each worded in English as the CLI prints it', async () => {
    const valid = (await buildLogoutToken('u', {}, context)).token;
    const [validHeader, validClaims] = valid.split('.');
    const signedWith = async (claims: Record<string, unknown>) => (await buildLogoutToken('u', { extraClaims: claims }, context)).token;
    const tokens = [
      'abc.def',
      '!!.??.x',
      `${encode({ typ: 'JWT' })}.${validClaims}.x`,
      `${encode({ alg: 'none' })}.${encode({ sub: 'u' })}.`,
      `${encode({ alg: 'RS256' })}.${validClaims}.abc`,
      (await buildLogoutToken('u', {}, { ...context, apiSecret: 'another-secret' })).token,
      `${validHeader}.${validClaims}.!!!`,
      (await buildLogoutToken('u', { negativeCase: 'missing-sub' }, context)).token,
      `${encode({ alg: 'none' })}.${encode({ sub: 5, exp: 'soon', iat: 'now', nbf: NOW_S + 3600, aud: ['x', 7] })}.`,
      (await buildLogoutToken('u', { negativeCase: 'expired' }, context)).token,
      (await buildLogoutToken('u', { issuedAt: NOW_S + 3600 }, context)).token,
      await signedWith({ nbf: NOW_S + 3600 }),
    ];
    const met = new Set<string>();
    for (const token of tokens) {
      const result = await verifyLogoutToken(token, context);
      expect(result.problems).toEqual(result.problemTexts.map((text) => wordInEnglish(text)));
      for (const text of result.problemTexts) {
        expect(isMessageId(text.id), text.id).toBe(true);
        met.add(text.id);
      }
    }
    const catalogue = Object.keys(MESSAGES).filter((id) => id.startsWith('verify.'));
    expect([...met].sort()).toEqual(catalogue.sort());
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

describe('privacy-desk logout and token verify (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  let goodToken = '';
  beforeAll(async () => {
    f = await startCliFixture(20);
  });
  afterAll(() => f.close());

  it('ends every session of the user and shows status, answer, elapsed and claims', async () => {
    const uid = 'jean dupont';
    await f.login(uid);
    await f.login(uid);
    expect((await f.sandboxUser(uid)).body?.sessionCount).toBeGreaterThanOrEqual(2);
    const { code, stdout } = await f.cli(['logout', uid, '--alg', 'HS512', '--exp', '300', '--claim', 'sid=abc', '--claim', 'n=5', '--events']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Status: +200 /m);
    expect(stdout).toMatch(/^Answer: +\{"success":true\}/m);
    expect(stdout).toMatch(/^Elapsed: +\d+ ms/m);
    expect(stdout).toContain('"sub": "jean dupont"');
    expect(stdout).toContain('"sid": "abc"');
    expect(stdout).toContain('"n": 5');
    expect(stdout).toContain('http://schemas.openid.net/event/backchannel-logout');
    expect((await f.sandboxUser(uid)).body?.sessionCount).toBe(0);
    const entries = f.auditLines().filter((e) => e.uid === uid);
    expect(entries.map((e) => `${e.action}:${e.outcome}`)).toEqual(['logout:attempted', 'logout:done']);
  });

  it('--json gives the whole result, including the token for the tester', async () => {
    const { code, stdout } = await f.cli(['logout', 'alice@example.org', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { ok: boolean; status: number; token: string; header: { alg: string }; claims: { sub: string; aud: string } };
    expect(result).toMatchObject({ ok: true, status: 200, header: { alg: 'HS256' }, claims: { sub: 'alice@example.org', aud: f.sandbox.credentials.applicationName } });
    goodToken = result.token;
  });

  it('exits 1 with LOGOUT_REJECTED when the service refuses a token, and says nothing changed', async () => {
    const { code, stderr, stdout } = await f.cli(['logout', 'alice@example.org', '--aud', 'another-app']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Status: +400 \(refused\)/m);
    expect(stderr).toMatch(/^LOGOUT_REJECTED: .*\nOutcome: refused by the service — nothing was changed\.\n$/);
    expect(f.auditLines().at(-1)).toMatchObject({ action: 'logout', outcome: 'refused', errorCode: 'LOGOUT_REJECTED', status: 400 });
  });

  it('a failing service is reported as SERVER_ERROR with an unknown outcome (exit 3), not blamed on the token', async () => {
    f.sandbox.setFaults({ errorRate: 1 });
    try {
      const { code, stderr, stdout } = await f.cli(['logout', 'alice@example.org']);
      expect(code).toBe(3);
      expect(stdout).toMatch(/^Status: +5\d\d \(outcome unknown: the sessions may or may not have ended\)/m);
      expect(stderr).toMatch(/^SERVER_ERROR: .*\nOutcome: UNKNOWN — the request may have reached the service and taken effect\. Check the user before repeating an erasure; a logout can safely be sent again\.\n$/);
      expect(stderr).not.toMatch(/claims/);
      const json = await f.cli(['logout', 'alice@example.org', '--json']);
      expect(json.code).toBe(3);
      // One JSON document: the result, which carries the outcome itself.
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, outcome: 'unknown', errorCode: 'SERVER_ERROR' });
      expect(f.auditLines().at(-1)).toMatchObject({ action: 'logout', outcome: 'unknown', errorCode: 'SERVER_ERROR' });
    } finally {
      f.sandbox.setFaults({ errorRate: 0 });
    }
  });

  it('logout --negative that meets a cut connection or a failing service is inconclusive (exit 3), never the service accepting the token', async () => {
    for (const fault of [{ dropRate: 1 }, { errorRate: 1 }]) {
      f.sandbox.setFaults(fault);
      try {
        const human = await f.cli(['logout', 'alice@example.org', '--negative', 'wrong-secret']);
        expect(human.code, JSON.stringify(fault)).toBe(3);
        expect(human.stdout).toMatch(/^Verdict: +INCONCLUSIVE — the service did not judge the broken token \(wrong-secret\): this says nothing about its token checks\. Send it again once the service answers\.$/m);
        expect(`${human.stdout}${human.stderr}`).not.toMatch(/ACCEPTED|refused as expected|not as expected/);
        const json = await f.cli(['logout', 'alice@example.org', '--negative', 'expired', '--json']);
        expect(json.code).toBe(3);
        expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'inconclusive' });
      } finally {
        f.sandbox.setFaults({ dropRate: 0, errorRate: 0 });
      }
    }
  });

  it('logout --negative refused in the body of a 200 is inconclusive for that reason (exit 3): the service answered, and sending it again gets the same answer', async () => {
    f.sandbox.setVariants({ logoutErrorStatus: 200 });
    try {
      const human = await f.cli(['logout', 'alice@example.org', '--negative', 'wrong-secret']);
      expect(human.code).toBe(3);
      expect(human.stdout).toMatch(/^Status: +200 /m);
      expect(human.stdout).toMatch(/^Verdict: +INCONCLUSIVE — the service’s answer says the logout failed or was refused \(an "error" member\), but with HTTP 200, a status that says success: whether the user’s sessions ended cannot be told from the answer, and sending it again gets the same answer\. Ask the service’s administrators how it answers a logout it refuses; on the sandbox, GET \/sandbox\/users\/\{uid\} shows the session count\.$/m);
      expect(human.stderr).toMatch(/^The service said: “The logout token signature does not match/m);
      const all = `${human.stdout}${human.stderr}`;
      expect(all).not.toMatch(/did not judge|Send it again|sent again|ACCEPTED|refused as expected/);
      const json = await f.cli(['logout', 'alice@example.org', '--negative', 'expired', '--json']);
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'inconclusive', answer: 'says-failed', status: 200, outcome: 'unknown' });
    } finally {
      f.sandbox.setVariants({ logoutErrorStatus: 400 });
    }
  });

  it('token verify accepts a good token and explains a bad one (exit 1)', async () => {
    expect(goodToken).not.toBe('');
    const good = await f.cli(['token', 'verify', goodToken]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^Valid/);

    const [header, payload, signature] = goodToken.split('.');
    const tampered = `${header}.${payload}.${signature!.slice(0, -4)}${signature!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const bad = await f.cli(['token', 'verify', tampered, '--json']);
    expect(bad.code).toBe(1);
    const verification = JSON.parse(bad.stdout) as { valid: boolean; problems: string[]; claims: { sub: string } };
    expect(verification.valid).toBe(false);
    expect(verification.problems.join(' ')).toMatch(/secret/i);
    expect(verification.claims.sub).toBe('alice@example.org');
    expect(bad.stderr).toMatch(/^TOKEN_INVALID: /);
  });

  it('refuses an invalid uid before sending (exit 2)', async () => {
    const before = f.sandbox.stats().logoutRequests;
    const { code, stderr } = await f.cli(['logout', 'bad\tuid']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: .*control character.*\nOutcome: not sent — nothing reached the service\.\n$/);
    expect(f.sandbox.stats().logoutRequests).toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import { baseUrlProblem, checkBaseUrl, isLocalBaseUrl } from './profile';

describe('checkBaseUrl', () => {
  it('normalises a pasted address: spaces, trailing slashes and /api/v1 go', () => {
    expect(checkBaseUrl('  https://debate.example.com/  ')).toEqual({ ok: true, baseUrl: 'https://debate.example.com' });
    expect(checkBaseUrl('https://debate.example.com/space/api/v1/')).toEqual({ ok: true, baseUrl: 'https://debate.example.com/space' });
    expect(checkBaseUrl('https://Debate.Example.com:8443/API/V1')).toEqual({ ok: true, baseUrl: 'https://debate.example.com:8443' });
  });

  it('allows plain http only on this computer', () => {
    for (const input of ['http://localhost:4600', 'http://127.0.0.1:4010/', 'http://127.45.6.7:4010', 'http://127.1:4600', 'http://[::1]:4600', 'http://LOCALHOST:4600']) {
      expect(checkBaseUrl(input).ok, input).toBe(true);
    }
  });

  it('does not count names under .localhost, look-alikes or other private addresses as this computer', () => {
    for (const input of ['http://evil.localhost', 'http://sandbox.localhost:4600', 'http://localhost.:4600', 'http://localhost.evil.com', 'http://127.0.0.1.evil.com', 'http://0.0.0.0:4600', 'http://10.0.0.1', 'http://[::ffff:127.0.0.1]', 'http://[::]']) {
      expect(baseUrlProblem(input), input).toEqual({ code: 'https-required' });
      expect(isLocalBaseUrl(input), input).toBe(false);
    }
  });
});

describe('baseUrlProblem', () => {
  it('accepts a valid address', () => {
    expect(baseUrlProblem('https://debate.example.com')).toBeUndefined();
  });

  it('says required when nothing but spaces was entered', () => {
    expect(baseUrlProblem('')).toEqual({ code: 'required' });
    expect(baseUrlProblem('   ')).toEqual({ code: 'required' });
  });

  it('says not-a-url, with the trimmed input, when it does not parse', () => {
    expect(baseUrlProblem(' debate.example.com ')).toEqual({ code: 'not-a-url', input: 'debate.example.com' });
  });

  it('names the scheme when it is neither https nor http', () => {
    expect(baseUrlProblem('ftp://debate.example.com')).toEqual({ code: 'scheme', protocol: 'ftp:' });
  });

  it('requires https away from this computer', () => {
    expect(baseUrlProblem('http://debate.example.com')).toEqual({ code: 'https-required' });
    expect(baseUrlProblem('http://localhost.example.com')).toEqual({ code: 'https-required' });
  });

  it('refuses credentials in the address', () => {
    expect(baseUrlProblem('https://admin:pw@debate.example.com')).toEqual({ code: 'credentials-in-url' });
    expect(baseUrlProblem('https://admin@debate.example.com')).toEqual({ code: 'credentials-in-url' });
  });

  it('refuses a query or a fragment', () => {
    expect(baseUrlProblem('https://debate.example.com/?lang=fr')).toEqual({ code: 'query-or-fragment' });
    expect(baseUrlProblem('https://debate.example.com/#top')).toEqual({ code: 'query-or-fragment' });
  });
});

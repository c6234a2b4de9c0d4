import { describe, expect, it } from 'vitest';
import type { LogoutResult } from '../../shared/logout';
import { logoutRefusal } from './logout-outcome';

const answer = (status: number, body: unknown = '', headers: Record<string, string> = {}): LogoutResult => ({
  uid: 'u', outcome: status >= 200 && status < 300 ? 'done' : 'refused', status, ok: status >= 200 && status < 300, headers, body, elapsedMs: 5, token: 't', header: {}, claims: {},
});

describe('logoutRefusal', () => {
  it('an accepted logout is no refusal', () => {
    expect(logoutRefusal(answer(200, { success: true }))).toBeNull();
  });

  it('a 400 or 422 is the service judging the token, quoting its reason', () => {
    const error = logoutRefusal(answer(422, { error: 'invalid_request', error_description: 'The token has expired.' }));
    expect(error?.code).toBe('LOGOUT_REJECTED');
    expect(error?.message).toContain('The token has expired.');
  });

  it('a 429 is a rate limit with the wait, never blamed on the token', () => {
    const error = logoutRefusal(answer(429, 'Retry later', { 'retry-after': '7' }));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 7 });
    expect(error?.message).not.toMatch(/claims/);
  });

  it('a redirect is refused, naming where without its query: nothing was sent there', () => {
    const error = logoutRefusal(answer(307, '', { location: 'http://elsewhere.example/collect?token=abc' }));
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'refused', status: 307 });
    expect(error?.message).toMatch(/^The service redirected \(307\) to http:\/\/elsewhere\.example\/collect while handling the logout\. Redirects are not followed: nothing was sent there\./);
    expect(error?.message).not.toContain('token=abc');
  });

  it('a 2xx that is an HTML page or broken JSON is not a known success: outcome unknown', () => {
    for (const body of ['<!doctype html><html>Maintenance</html>', '{"success": tr']) {
      expect(logoutRefusal(answer(200, body)), body).toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'unknown', status: 200 });
    }
    expect(logoutRefusal(answer(204, ''))).toBeNull();
  });

  it('a 5xx is a service failure; a 404 names both the application name and the address', () => {
    expect(logoutRefusal(answer(503))?.code).toBe('SERVER_ERROR');
    const notFound = logoutRefusal(answer(404, '<html>Not found</html>'));
    expect(notFound?.code).toBe('APPLICATION_NOT_FOUND');
    expect(notFound?.message).toMatch(/application name.*address/);
  });
});

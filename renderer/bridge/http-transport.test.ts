import { describe, expect, it, vi } from 'vitest';
import { createHttpTransport, HOST_TOKEN_STORAGE_KEY, isNotConnectedError, takeHostToken } from './http-transport';
import { createBridgeClient } from './bridge-client';
import { PrivacyDeskError } from '../../shared/errors';

describe('web host transport', () => {
  it('takes the token from the address fragment, keeps it for the session and removes it from the address bar', () => {
    window.history.replaceState(null, '', '/#token=abc%2F123');
    expect(takeHostToken()).toBe('abc/123');
    expect(window.location.hash).toBe('');
    expect(sessionStorage.getItem(HOST_TOKEN_STORAGE_KEY)).toBe('abc/123');
    // A reload (no fragment any more) still finds it.
    expect(takeHostToken()).toBe('abc/123');
  });

  it('posts JSON with the token header to /bridge/<method>, without cookies', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { profiles: [], activeId: null } }), { status: 200 }));
    const client = createBridgeClient(createHttpTransport({ token: 't0k', fetch }));
    await expect(client['profiles.list']({})).resolves.toEqual({ profiles: [], activeId: null });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/bridge/profiles.list');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('omit');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': 't0k' });
  });

  it('turns ok:false into a PrivacyDeskError with the same code, message and request id', async () => {
    const error = { code: 'NOT_FOUND', outcome: 'refused', message: 'No user has this uid.', status: 404, requestId: 'r-9' };
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: false, error }), { status: 200 }));
    const client = createBridgeClient(createHttpTransport({ token: 't', fetch }));
    const thrown = await client['users.erase']({ profileId: 'p', action: 'delete', uid: 'x', confirmUid: 'x' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PrivacyDeskError);
    expect((thrown as PrivacyDeskError).toInfo()).toEqual(error);
  });

  it('says the page is not connected when the host refuses the token (401/403) or there is none', async () => {
    for (const status of [401, 403]) {
      const client = createBridgeClient(createHttpTransport({ token: 'wrong', fetch: async () => new Response('', { status }) }));
      const thrown = await client['app.info']({}).catch((e: unknown) => e);
      expect(isNotConnectedError(thrown)).toBe(true);
    }
    const noToken = createBridgeClient(createHttpTransport({ token: null, fetch: vi.fn() }));
    expect(isNotConnectedError(await noToken['app.info']({}).catch((e: unknown) => e))).toBe(true);
  });

  it('reports a stopped host as a NETWORK error with what to do', async () => {
    const client = createBridgeClient(createHttpTransport({ token: 't', fetch: async () => Promise.reject(new TypeError('Failed to fetch')) }));
    const thrown = (await client['app.info']({}).catch((e: unknown) => e)) as PrivacyDeskError;
    expect(thrown.code).toBe('NETWORK');
    expect(thrown.message).toMatch(/npm run web/);
  });
});

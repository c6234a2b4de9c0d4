import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { api, tokenFor, userPath } from './test-support';

const INVALID_HEADER = 'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token is invalid"';

describe('protected routes (Doorkeeper)', () => {
  let sandbox: RunningSandbox;
  let publicToken: string;
  let authenticationToken: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 20 });
    publicToken = await tokenFor(sandbox, 'public');
    authenticationToken = await tokenFor(sandbox, 'authentication');
  });
  afterAll(() => sandbox.close());

  const routes: Array<[string, string]> = [
    ['GET', '/api/v1/users'],
    ['POST', `${userPath('user-000002')}/anonymize`],
    ['DELETE', userPath('user-000002')],
  ];

  it.each(routes)('%s %s without a token: 401, empty body, Doorkeeper WWW-Authenticate', async (method, path) => {
    const response = await api(sandbox, method, path);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(INVALID_HEADER);
    expect(await response.text()).toBe('');
  });

  it.each(routes)('%s %s with an unknown token: 401 "invalid"', async (method, path) => {
    const response = await api(sandbox, method, path, 'made-up-token');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(INVALID_HEADER);
    expect(await response.text()).toBe('');
  });

  it('refuses a non-Bearer Authorization scheme', async () => {
    const response = await fetch(`${sandbox.url}/api/v1/users`, { headers: { authorization: `Token ${publicToken}` } });
    expect(response.status).toBe(401);
  });

  it('answers 403 with an empty body and no WWW-Authenticate when the scope is wrong', async () => {
    const list = await api(sandbox, 'GET', '/api/v1/users', authenticationToken);
    const anonymize = await api(sandbox, 'POST', `${userPath('user-000002')}/anonymize`, publicToken);
    const remove = await api(sandbox, 'DELETE', userPath('user-000002'), publicToken);
    for (const response of [list, anonymize, remove]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.text()).toBe('');
    }
    // The refused erasures changed nothing.
    const state = (await (await fetch(`${sandbox.url}/sandbox/users/user-000002`)).json()) as { state: string };
    expect(state.state).toBe('active');
  });

  it('checks the token before looking the user up (401 beats 404)', async () => {
    const response = await api(sandbox, 'DELETE', userPath('nobody-at-all'));
    expect(response.status).toBe(401);
  });

  it('sends JSON bodies in the unauthorizedBody=json variant', async () => {
    sandbox.setVariants({ unauthorizedBody: 'json' });
    try {
      const missing = await api(sandbox, 'GET', '/api/v1/users');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe(INVALID_HEADER);
      expect(await missing.json()).toEqual({ error: 'invalid_token', error_description: 'The access token is invalid' });
      const wrongScope = await api(sandbox, 'GET', '/api/v1/users', authenticationToken);
      expect(wrongScope.status).toBe(403);
      expect(await wrongScope.json()).toMatchObject({ error: 'insufficient_scope' });
    } finally {
      sandbox.setVariants({ unauthorizedBody: 'empty' });
    }
  });

  it('puts a fresh X-Request-Id on every response, errors included', async () => {
    const a = await api(sandbox, 'GET', '/api/v1/users');
    const b = await api(sandbox, 'GET', '/api/v1/users', publicToken);
    const c = await fetch(`${sandbox.url}/no/such/route`);
    const ids = [a, b, c].map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });
});

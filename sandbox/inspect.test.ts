import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { api, inspectUid, login, tokenFor, userPath } from './test-support';

describe('/sandbox inspection routes', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 20 });
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox.close());

  const createUser = (body: unknown): Promise<Response> =>
    fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('GET /sandbox/ lists the routes', async () => {
    const body = (await (await fetch(`${sandbox.url}/sandbox/`)).json()) as { routes: string[] };
    expect(body.routes.some((r) => r.startsWith('PUT /sandbox/faults'))).toBe(true);
  });

  it('reports an active user with its counts, and 404 for a uid that never existed', async () => {
    const found = await inspectUid(sandbox, 'alice@example.org');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ state: 'active', user: { id: 1, uid: 'alice@example.org' } });
    expect(found.body.messagesCount).toBe((found.body.user as { messages_count: number }).messages_count);
    expect((await inspectUid(sandbox, 'never-existed')).status).toBe(404);
  });

  it('login opens a session', async () => {
    const before = (await inspectUid(sandbox, 'alice@example.org')).body.sessionCount as number;
    expect(await login(sandbox, 'alice@example.org')).toBe(before + 1);
    const missing = await fetch(`${sandbox.url}/sandbox/users/nobody/login`, { method: 'POST' });
    expect(missing.status).toBe(404);
  });

  it('creates users (201), refuses a duplicate uid (409) and bad input (400)', async () => {
    const created = await createUser({ uid: 'ünïcode/user?#%', full_name: 'Ünï Code', email: 'u@example.org', messages_count: 3, sessions: 2 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ user: { id: 21, uid: 'ünïcode/user?#%', full_name: 'Ünï Code', messages_count: 3 }, sessionCount: 2 });
    expect((await inspectUid(sandbox, 'ünïcode/user?#%')).body).toMatchObject({ state: 'active', messagesCount: 3, sessionCount: 2 });
    expect((await createUser({ uid: 'ünïcode/user?#%' })).status).toBe(409);
    expect((await createUser({ uid: 'alice@example.org' })).status).toBe(409);
    for (const bad of [{}, { uid: '' }, { uid: 'x'.repeat(1025) }, { uid: 'ok', age: 'old' }, { uid: 'ok', unknown: 1 }]) {
      expect((await createUser(bad)).status, JSON.stringify(bad).slice(0, 40)).toBe(400);
    }
    // The created user is a real one for the API.
    const token = await tokenFor(sandbox, 'authentication');
    expect((await api(sandbox, 'DELETE', userPath('ünïcode/user?#%'), token)).status).toBe(200);
  });

  it('a deleted uid can be created again', async () => {
    const token = await tokenFor(sandbox, 'authentication');
    await api(sandbox, 'DELETE', userPath('jean dupont'), token);
    expect((await createUser({ uid: 'jean dupont' })).status).toBe(201);
    expect((await inspectUid(sandbox, 'jean dupont')).body.state).toBe('active');
  });

  it('counts API requests in stats, and resets them', async () => {
    await fetch(`${sandbox.url}/sandbox/stats/reset`, { method: 'POST' });
    const token = await tokenFor(sandbox, 'public');
    await api(sandbox, 'GET', '/api/v1/users', token);
    await api(sandbox, 'GET', '/api/v1/users');
    await fetch(`${sandbox.url}/sandbox/users/alice%40example.org`);
    const stats = await (await fetch(`${sandbox.url}/sandbox/stats`)).json();
    expect(stats).toEqual({ tokenRequests: { authentication: 0, public: 1, failed: 0 }, apiRequests: 2, logoutRequests: 0 });
    expect(sandbox.stats()).toEqual(stats);
    await fetch(`${sandbox.url}/sandbox/stats/reset`, { method: 'POST' });
    expect(sandbox.stats()).toEqual({ tokenRequests: { authentication: 0, public: 0, failed: 0 }, apiRequests: 0, logoutRequests: 0 });
  });

  it('POST /sandbox/reset brings back the seeded users and the start-up variants', async () => {
    const token = await tokenFor(sandbox, 'authentication');
    await api(sandbox, 'DELETE', userPath('alice@example.org'), token);
    sandbox.setVariants({ listBody: 'bare-array' });
    const response = await fetch(`${sandbox.url}/sandbox/reset`, { method: 'POST' });
    expect(await response.json()).toEqual({ success: true, users: 20 });
    expect((await inspectUid(sandbox, 'alice@example.org')).body.state).toBe('active');
    const faults = (await (await fetch(`${sandbox.url}/sandbox/faults`)).json()) as { variants: { listBody: string } };
    expect(faults.variants.listBody).toBe('success-data');
    // Tokens survive a reset.
    expect((await api(sandbox, 'DELETE', userPath('alice@example.org'), token)).status).toBe(200);
  });
});

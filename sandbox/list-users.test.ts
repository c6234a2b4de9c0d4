import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { api, listPage, tokenFor } from './test-support';

const PART_B_FIELDS = [
  'age', 'city', 'created_at', 'description', 'email', 'full_name', 'hash_id', 'id', 'image_url', 'interests',
  'last_activity', 'level', 'messages_count', 'occupation', 'points', 'score', 'slug', 'uid', 'votes_count',
];

type User = Record<string, unknown> & { id: number; uid: string | null; created_at: string };

async function dataOf(response: Response): Promise<User[]> {
  return ((await response.json()) as { data: User[] }).data;
}

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(', ')) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (match?.[1] && match[2]) out[match[2]] = match[1];
  }
  return out;
}

describe('GET /api/v1/users', () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 250 });
    token = await tokenFor(sandbox, 'public');
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox.close());

  it('returns {"success":true,"data":[...]} with exactly the observed user fields (docs/SERVICE-API.md#user-record)', async () => {
    const response = await api(sandbox, 'GET', '/api/v1/users', token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; data: User[] };
    expect(Object.keys(body)).toEqual(['success', 'data']);
    expect(body.success).toBe(true);
    for (const user of body.data) {
      expect(Object.keys(user).sort()).toEqual(PART_B_FIELDS);
      expect(Number.isInteger(user.id)).toBe(true);
      expect(new Date(user.created_at).toISOString()).toBe(user.created_at);
      expect(Object.keys(user.level as object).sort()).toEqual(['icon_url', 'id', 'name']);
    }
  });

  it('defaults to page 1 of 10 and sends pagy headers with absolute links', async () => {
    const response = await api(sandbox, 'GET', '/api/v1/users', token);
    const users = await dataOf(response);
    expect(users.map((u) => u.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(response.headers.get('total')).toBe('250');
    expect(response.headers.get('total-pages')).toBe('25');
    expect(response.headers.get('current-page')).toBe('1');
    expect(response.headers.get('page-items')).toBe('10');
    const rel = links(response.headers.get('link'));
    expect(Object.keys(rel).sort()).toEqual(['first', 'last', 'next']);
    expect(rel.next).toBe(`${sandbox.url}/api/v1/users?page=2&per_page=10`);
    expect(rel.last).toBe(`${sandbox.url}/api/v1/users?page=25&per_page=10`);
  });

  it('follows the next link to the following page, keeping per_page', async () => {
    const first = await api(sandbox, 'GET', '/api/v1/users?per_page=7&page=3', token);
    const rel = links(first.headers.get('link'));
    expect(rel.prev).toBe(`${sandbox.url}/api/v1/users?page=2&per_page=7`);
    const next = await fetch(rel.next ?? '', { headers: { authorization: `Bearer ${token}` } });
    expect((await dataOf(next)).map((u) => u.id)).toEqual([22, 23, 24, 25, 26, 27, 28]);
  });

  it('silently caps per_page at 100', async () => {
    const response = await api(sandbox, 'GET', '/api/v1/users?per_page=500', token);
    expect(await dataOf(response)).toHaveLength(100);
    expect(response.headers.get('page-items')).toBe('100');
    expect(response.headers.get('total-pages')).toBe('3');
  });

  it('serves short pages although more exist when perPageCap is lowered', async () => {
    sandbox.setVariants({ perPageCap: 20 });
    const response = await api(sandbox, 'GET', '/api/v1/users?per_page=50', token);
    expect(await dataOf(response)).toHaveLength(20);
    expect(response.headers.get('total')).toBe('250');
  });

  it('answers an empty page with headers beyond the last page', async () => {
    const response = await api(sandbox, 'GET', '/api/v1/users?page=99&per_page=10', token);
    expect(response.status).toBe(200);
    expect(await dataOf(response)).toEqual([]);
    expect(response.headers.get('current-page')).toBe('99');
    expect(response.headers.get('total')).toBe('250');
    expect(links(response.headers.get('link')).next).toBeUndefined();
  });

  it('serves the last partial page and no next link', async () => {
    const response = await api(sandbox, 'GET', '/api/v1/users?page=3&per_page=100', token);
    expect(await dataOf(response)).toHaveLength(50);
    expect(Object.keys(links(response.headers.get('link'))).sort()).toEqual(['first', 'last', 'prev']);
  });

  it('accepts the API key as the api_key query parameter, and refuses a wrong one', async () => {
    const good = await listPage(sandbox, 'per_page=5');
    expect(good.status).toBe(200);
    expect(await dataOf(good)).toHaveLength(5);
    const bad = await fetch(`${sandbox.url}/api/v1/users?api_key=wrong`);
    expect(bad.status).toBe(401);
    expect(await bad.text()).toBe('');
    // The link headers never carry the key.
    expect(good.headers.get('link')).not.toContain('api_key');
  });

  it('drops total and total-pages (and the last link) with countless=true', async () => {
    const response = await api(sandbox, 'GET', '/api/v1/users?countless=true&page=2', token);
    expect(response.headers.get('total')).toBeNull();
    expect(response.headers.get('total-pages')).toBeNull();
    expect(response.headers.get('current-page')).toBe('2');
    const rel = links(response.headers.get('link'));
    expect(Object.keys(rel).sort()).toEqual(['first', 'next', 'prev']);
    expect(rel.next).toContain('countless=true');
  });

  it('sorts by id and created_at, both directions', async () => {
    const ids = async (sort: string): Promise<User[]> => dataOf(await api(sandbox, 'GET', `/api/v1/users?per_page=100&sort=${sort}`, token));
    expect((await ids('-id')).slice(0, 3).map((u) => u.id)).toEqual([250, 249, 248]);
    const ascending = (await ids('created_at')).map((u) => u.created_at);
    expect(ascending).toEqual([...ascending].sort());
    const descending = (await ids('-created_at')).map((u) => u.created_at);
    expect(descending).toEqual([...descending].sort().reverse());
    expect(descending[0]! > ascending[0]!).toBe(true);
  });

  it.each(['abc', '0', '-1', '1.5'])('refuses page=%s and per_page=%s with 400 JSON', async (value) => {
    for (const name of ['page', 'per_page']) {
      const response = await api(sandbox, 'GET', `/api/v1/users?${name}=${value}`, token);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { success: boolean; error: string };
      expect(body.success).toBe(false);
      expect(body.error).toContain(name);
    }
  });

  it('serves each list body variant', async () => {
    sandbox.setVariants({ listBody: 'bare-array' });
    const bare = (await (await api(sandbox, 'GET', '/api/v1/users?per_page=3', token)).json()) as User[];
    expect(bare.map((u) => u.id)).toEqual([1, 2, 3]);

    sandbox.setVariants({ listBody: 'users-key' });
    const usersKey = (await (await api(sandbox, 'GET', '/api/v1/users?per_page=3', token)).json()) as { users: User[] };
    expect(Object.keys(usersKey)).toEqual(['users']);
    expect(usersKey.users).toHaveLength(3);

    sandbox.setVariants({ listBody: 'data-meta' });
    const meta = (await (await api(sandbox, 'GET', '/api/v1/users?per_page=3&page=2', token)).json()) as { data: User[]; meta: unknown };
    expect(meta.data.map((u) => u.id)).toEqual([4, 5, 6]);
    expect(meta.meta).toEqual({ current_page: 2, per_page: 3, next_page: 3, total: 250, total_pages: 84 });
  });

  it('sends no pagination header at all when paginationHeaders is false', async () => {
    sandbox.setVariants({ paginationHeaders: false });
    const response = await api(sandbox, 'GET', '/api/v1/users', token);
    for (const name of ['total', 'total-pages', 'current-page', 'page-items', 'link']) expect(response.headers.get(name)).toBeNull();
    expect(await dataOf(response)).toHaveLength(10);
  });

  it('shows anonymised users (uid null) and drops deleted ones', async () => {
    const auth = await tokenFor(sandbox, 'authentication');
    await api(sandbox, 'POST', '/api/v1/users/user-000002/anonymize', auth);
    await api(sandbox, 'DELETE', '/api/v1/users/user-000005', auth);
    const response = await api(sandbox, 'GET', '/api/v1/users?per_page=5', token);
    const users = await dataOf(response);
    expect(users.map((u) => u.id)).toEqual([1, 2, 3, 4, 6]);
    expect(users[1]).toMatchObject({ uid: null, full_name: 'Anonymous user' });
    expect(response.headers.get('total')).toBe('249');
  });
});

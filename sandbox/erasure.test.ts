import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { AWKWARD, api, inspectUid, login, tokenFor, userPath } from './test-support';

type Inspection = {
  state: string;
  user: Record<string, unknown> | null;
  sessionCount: number;
  messagesCount: number;
  votesCount: number;
};

describe('anonymise and delete by uid', () => {
  let sandbox: RunningSandbox;
  let token: string;
  let longUid: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 200 });
    token = await tokenFor(sandbox, 'authentication');
    const page = (await (await fetch(`${sandbox.url}/api/v1/users?api_key=sandbox-api-key&per_page=100&page=2`)).json()) as {
      data: Array<{ uid: string | null }>;
    };
    longUid = page.data.find((u) => u.uid?.length === 1024)?.uid ?? '';
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox.close());

  it('seeds a uid of exactly 1 024 characters', () => {
    expect(longUid).toHaveLength(1024);
  });

  const everyAwkwardUid = (): string[] => [...AWKWARD, longUid];

  it.each([...AWKWARD, 'the 1 024-character uid'])('anonymises %s through real HTTP (exact round trip)', async (label) => {
    const uid = label === 'the 1 024-character uid' ? longUid : label;
    expect((await inspectUid(sandbox, uid)).body.state).toBe('active');
    const response = await api(sandbox, 'POST', `${userPath(uid)}/anonymize`, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const after = await inspectUid(sandbox, uid);
    expect(after.status).toBe(200);
    expect(after.body.state).toBe('anonymized');
    // Only that user changed.
    const stillActive = everyAwkwardUid().filter((other) => other !== uid);
    for (const other of stillActive) expect((await inspectUid(sandbox, other)).body.state, other).toBe('active');
  });

  it.each([...AWKWARD, 'the 1 024-character uid'])('deletes %s through real HTTP (exact round trip)', async (label) => {
    const uid = label === 'the 1 024-character uid' ? longUid : label;
    const response = await api(sandbox, 'DELETE', userPath(uid), token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const after = await inspectUid(sandbox, uid);
    expect(after.body).toEqual({
      state: 'deleted', user: null, sessionCount: 0, messagesCount: 0, votesCount: 0,
      requests: [{ seq: expect.any(Number), method: 'DELETE', act: 'delete', status: 200, answered: true, at: expect.any(String) }],
    });
  });

  it('keeps a literal + in the path as a plus, never a space', async () => {
    // 'bob+news@example.org' sent with a raw '+': a router that turns '+' into ' ' would miss the user.
    const response = await api(sandbox, 'DELETE', '/api/v1/users/bob+news@example.org', token);
    expect(response.status).toBe(200);
    expect((await inspectUid(sandbox, 'bob+news@example.org')).body.state).toBe('deleted');
  });

  it('does not decode twice: %2541 reaches the uid "%41", not "A"', async () => {
    await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: 'A' }) });
    const response = await api(sandbox, 'DELETE', '/api/v1/users/%2541', token);
    expect(response.status).toBe(404);
    expect((await inspectUid(sandbox, 'A')).body.state).toBe('active');
  });

  it('an unencoded slash is another route, not the uid "team/lead"', async () => {
    const response = await api(sandbox, 'DELETE', '/api/v1/users/team/lead', token);
    expect(response.status).toBe(404);
    expect((await inspectUid(sandbox, 'team/lead')).body.state).toBe('active');
  });

  it('anonymising erases the uid and personal fields but keeps counts, contributions, slug, hash_id and sessions', async () => {
    const uid = 'zoë.müller';
    await login(sandbox, uid);
    const before = (await inspectUid(sandbox, uid)).body as Inspection;
    expect(before.user?.full_name).toBeTruthy();

    expect((await api(sandbox, 'POST', `${userPath(uid)}/anonymize`, token)).status).toBe(200);
    const after = (await inspectUid(sandbox, uid)).body as Inspection;
    expect(after.state).toBe('anonymized');
    expect(after.user).toMatchObject({
      id: before.user?.id,
      uid: null,
      full_name: 'Anonymous user',
      email: null,
      image_url: null,
      description: null,
      age: null,
      city: null,
      occupation: null,
      interests: null,
      slug: before.user?.slug,
      hash_id: before.user?.hash_id,
      messages_count: before.user?.messages_count,
      votes_count: before.user?.votes_count,
      score: before.user?.score,
      created_at: before.user?.created_at,
    });
    expect(after.messagesCount).toBe(before.messagesCount);
    expect(after.votesCount).toBe(before.votesCount);
    expect(after.sessionCount).toBe(before.sessionCount);

    // The old uid no longer finds anybody.
    for (const [method, path] of [['POST', `${userPath(uid)}/anonymize`], ['DELETE', userPath(uid)]] as const) {
      const response = await api(sandbox, method, path, token);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ success: false, error: 'User not found' });
    }
  });

  it('deleting removes the user, contributions and sessions', async () => {
    const uid = 'jean dupont';
    await login(sandbox, uid);
    expect((await api(sandbox, 'DELETE', userPath(uid), token)).status).toBe(200);
    expect((await inspectUid(sandbox, uid)).body).toMatchObject({ state: 'deleted', user: null, sessionCount: 0, messagesCount: 0, votesCount: 0 });
    expect((await api(sandbox, 'DELETE', userPath(uid), token)).status).toBe(404);
    expect((await api(sandbox, 'POST', `${userPath(uid)}/anonymize`, token)).status).toBe(404);
  });

  it('answers 404 {"success":false,"error":"User not found"} for an unknown uid', async () => {
    const response = await api(sandbox, 'POST', `${userPath('nobody@example.org')}/anonymize`, token);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: 'User not found' });
    expect((await inspectUid(sandbox, 'nobody@example.org')).status).toBe(404);
  });

  it('serves the erasure and not-found variants', async () => {
    sandbox.setVariants({ erasureResponse: 'empty-200' });
    const empty = await api(sandbox, 'DELETE', userPath('user-000002'), token);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');

    sandbox.setVariants({ erasureResponse: '204' });
    const noContent = await api(sandbox, 'POST', `${userPath('user-000005')}/anonymize`, token);
    expect(noContent.status).toBe(204);
    expect(await noContent.text()).toBe('');

    sandbox.setVariants({ notFoundBody: 'empty' });
    const missing = await api(sandbox, 'DELETE', userPath('user-000002'), token);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('');
  });

  it('accepts requests without a Content-Type or with a form one', async () => {
    const bare = await fetch(`${sandbox.url}${userPath('user-000002')}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(bare.status).toBe(200);
    const form = await fetch(`${sandbox.url}${userPath('user-000005')}/anonymize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
  });
});

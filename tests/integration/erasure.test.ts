import { describe, expect, it } from 'vitest';
import { AWKWARD_UIDS, clientFor, createUser, failure, inspectUser, recordingFetch, useSandbox } from './helpers';

describe('anonymise and delete against the sandbox', () => {
  const sandbox = useSandbox({ users: 60 });

  it.each(AWKWARD_UIDS)('anonymises “%s” exactly that user, keeping counts', async (uid) => {
    const before = await inspectUser(sandbox.current, uid);
    expect(before?.state).toBe('active');
    const result = await clientFor(sandbox.current).anonymizeUser(uid);
    expect(result).toMatchObject({ action: 'anonymize', uid, status: 200, requestId: expect.any(String) });
    expect(Date.parse(result.completedAt)).not.toBeNaN();
    const after = await inspectUser(sandbox.current, uid);
    expect(after).toMatchObject({ state: 'anonymized', messagesCount: before?.messagesCount, votesCount: before?.votesCount });
    expect(after?.user).toMatchObject({ uid: null, email: null });
  });

  it.each(AWKWARD_UIDS)('deletes “%s” exactly that user', async (uid) => {
    const result = await clientFor(sandbox.current).deleteUser(uid);
    expect(result).toMatchObject({ action: 'delete', uid, status: 200 });
    expect((await inspectUser(sandbox.current, uid))?.state).toBe('deleted');
  });

  it('round-trips a 1 024-character uid and leaves look-alike uids alone', async () => {
    const long = `${'x'.repeat(1000)}/?#% ü+${'y'.repeat(1024 - 1007)}`;
    expect(long).toHaveLength(1024);
    await createUser(sandbox.current, { uid: long });
    await createUser(sandbox.current, { uid: 'team' });
    await createUser(sandbox.current, { uid: 'what' });
    const client = clientFor(sandbox.current);
    await client.eraseUser('delete', long);
    expect((await inspectUser(sandbox.current, long))?.state).toBe('deleted');
    await client.eraseUser('anonymize', 'team/lead');
    await client.eraseUser('anonymize', 'what?really');
    expect((await inspectUser(sandbox.current, 'team'))?.state).toBe('active');
    expect((await inspectUser(sandbox.current, 'what'))?.state).toBe('active');
  });

  it('an unknown or already anonymised uid is NOT_FOUND with the profile name and advice', async () => {
    const client = clientFor(sandbox.current);
    await client.anonymizeUser('jean dupont');
    for (const attempt of [client.anonymizeUser('jean dupont'), client.deleteUser('jean dupont'), client.deleteUser('nobody-here')]) {
      const error = await failure(attempt);
      expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: expect.any(String) });
      expect(error.message).toMatch(/exists in Sandbox — it may already have been anonymised or deleted/);
    }
    sandbox.current.setVariants({ notFoundBody: 'empty' });
    expect((await failure(client.deleteUser('nobody-here'))).code).toBe('NOT_FOUND');
  });

  it.each(['empty-200', '204'] as const)('accepts the %s success variant', async (erasureResponse) => {
    sandbox.current.setVariants({ erasureResponse });
    const client = clientFor(sandbox.current);
    expect(await client.anonymizeUser('alice@example.org')).toMatchObject({ status: erasureResponse === '204' ? 204 : 200 });
    expect(await client.deleteUser('bob+news@example.org')).toMatchObject({ action: 'delete' });
    expect((await inspectUser(sandbox.current, 'bob+news@example.org'))?.state).toBe('deleted');
  });

  it('a token without the authentication scope gets INSUFFICIENT_SCOPE and changes nothing', async () => {
    // Force the client to hold a `public` token for erasure: the token request's scope is rewritten.
    const recorder = recordingFetch((request) =>
      request.url.endsWith('/oauth/token') ? { ...request, body: request.body.replace('scope=authentication', 'scope=public') } : request,
    );
    const error = await failure(clientFor(sandbox.current, { fetch: recorder.fetch }).anonymizeUser('alice@example.org'));
    expect(error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', status: 403 });
    expect(recorder.apiRequests()).toHaveLength(1);
    expect((await inspectUser(sandbox.current, 'alice@example.org'))?.state).toBe('active');
  });

  it('429 on anonymise is RATE_LIMITED with retryAfterSeconds, never retried', async () => {
    const waits: number[] = [];
    const recorder = recordingFetch();
    const client = clientFor(sandbox.current, { fetch: recorder.fetch, sleep: async (ms) => void waits.push(ms) });
    await client.checkToken('authentication');
    sandbox.current.setFaults({ rateLimit: 1 });
    await fetch(`${sandbox.current.url}/api/v1/users?api_key=${sandbox.current.credentials.apiKey}`);
    await fetch(`${sandbox.current.url}/api/v1/users?api_key=${sandbox.current.credentials.apiKey}`);
    const error = await failure(client.anonymizeUser('alice@example.org'));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.message).toMatch(/Nothing was changed/);
    expect(recorder.apiRequests()).toHaveLength(1);
    expect(waits).toEqual([]);
    sandbox.current.setFaults({ rateLimit: 0 });
    expect((await inspectUser(sandbox.current, 'alice@example.org'))?.state).toBe('active');
  });

  it('5xx on delete is SERVER_ERROR, never retried, and says to check the user', async () => {
    const recorder = recordingFetch();
    const client = clientFor(sandbox.current, { fetch: recorder.fetch });
    await client.checkToken('authentication');
    sandbox.current.setFaults({ errorRate: 1 });
    const error = await failure(client.deleteUser('alice@example.org'));
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.message).toMatch(/check the user before trying again/);
    expect(recorder.apiRequests()).toHaveLength(1);
  });

  it('a timeout on anonymise is TIMEOUT, says the outcome is UNKNOWN, and is not retried', async () => {
    const recorder = recordingFetch();
    const client = clientFor(sandbox.current, { fetch: recorder.fetch, timeoutMs: 300 });
    await client.checkToken('authentication');
    sandbox.current.setFaults({ latencyMs: 1500 });
    const error = await failure(client.anonymizeUser('alice@example.org'));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/UNKNOWN/);
    expect(error.message).toMatch(/Check the user/);
    expect(recorder.apiRequests()).toHaveLength(1);
  });

  it('a dropped connection on delete is NETWORK with an UNKNOWN outcome, not retried', async () => {
    const recorder = recordingFetch();
    const client = clientFor(sandbox.current, { fetch: recorder.fetch });
    await client.checkToken('authentication');
    sandbox.current.setFaults({ dropRate: 1 });
    const error = await failure(client.deleteUser('alice@example.org'));
    expect(error.code).toBe('NETWORK');
    expect(error.message).toMatch(/UNKNOWN/);
    expect(recorder.apiRequests()).toHaveLength(1);
  });
});

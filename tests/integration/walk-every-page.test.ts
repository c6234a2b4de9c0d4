import { describe, expect, it } from 'vitest';
import { listAllUsers } from '../../core/list-all-users';
import { createUserIndexes } from '../../core/user-index';
import { clientFor, recordingFetch, useSandbox } from './helpers';

const PAGES = 120;

describe('a full walk against the sandbox (find a person on any page)', () => {
  const sandbox = useSandbox({ users: PAGES * 100 });

  it('asks for 100 users a page, a few pages at once, and reads each page once', async () => {
    const recorder = recordingFetch();
    const client = clientFor(sandbox.current, { fetch: recorder.fetch });
    const users = await listAllUsers((input) => client.listUsers(input));
    expect(users).toHaveLength(PAGES * 100);
    const pagesAsked = recorder.sent.filter((r) => r.url.includes('/api/v1/users?')).map((r) => new URL(r.url));
    expect(pagesAsked).toHaveLength(PAGES);
    expect(new Set(pagesAsked.map((url) => url.searchParams.get('per_page')))).toEqual(new Set(['100']));
  });

  it('completes a walk of 120 pages while a fifth of the service’s answers are 5xx', async () => {
    sandbox.current.setFaults({ errorRate: 0.2 });
    const client = clientFor(sandbox.current);
    const users = await listAllUsers((input) => client.listUsers(input), { pageRetry: { sleep: async () => {} } });
    expect(users).toHaveLength(PAGES * 100);
    expect(new Set(users.map((user) => user.fields.id)).size).toBe(PAGES * 100);
  });

  it('finds "emilie" in "Émilie" among every user, with the matched part', async () => {
    const client = clientFor(sandbox.current);
    const indexes = createUserIndexes({ walk: async () => ({ users: await listAllUsers((input) => client.listUsers(input)), pages: PAGES, baseUrl: sandbox.current.url }) });
    await indexes.build('sandbox');
    const answer = indexes.search('sandbox', 'emilie');
    if (answer.state !== 'ready') throw new Error('expected an index');
    expect(answer.total).toBeGreaterThan(0);
    const first = answer.matches[0]!;
    const range = first.ranges.find((r) => r.field === 'fullName')!;
    expect(first.user.fullName!.slice(range.start, range.end)).toBe('Émilie');
  });
});

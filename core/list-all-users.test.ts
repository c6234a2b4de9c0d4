import { describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../shared/errors';
import type { ListUsersInput, UserPage } from '../shared/users';
import { listAllUsers } from './list-all-users';
import { parseUserPage } from './list-parser';

const RECORDS = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, uid: `user-${i + 1}`, full_name: `User ${i + 1}` }));

/** A fake service: serves RECORDS with a silent per_page cap, through the real list parser. */
function service(options: { cap: number; headers: (page: number, served: number) => Record<string, string>; ignorePage?: boolean }) {
  const asked: number[] = [];
  const listPage = async ({ page = 1, perPage = 10 }: ListUsersInput): Promise<UserPage> => {
    asked.push(page);
    const size = Math.min(perPage, options.cap);
    const start = options.ignorePage ? 0 : (page - 1) * size;
    const body = RECORDS.slice(start, start + size);
    return parseUserPage(body, new Headers(options.headers(page, body.length)), { page, perPage });
  };
  return { listPage, asked };
}

describe('listAllUsers', () => {
  it('gets every user once when the service caps per_page and gives only a total', async () => {
    const { listPage } = service({ cap: 5, headers: () => ({ total: '23' }) });
    const all = await listAllUsers(listPage, { perPage: 7 });
    expect(all.map((u) => u.fields.id)).toEqual(RECORDS.map((r) => r.id));
  });

  it('gets every user when the service caps per_page and says nothing about paging', async () => {
    const { listPage, asked } = service({ cap: 5, headers: () => ({}) });
    const all = await listAllUsers(listPage, { perPage: 7 });
    expect(all).toHaveLength(23);
    expect(asked.at(-1)).toBe(6); // one confirming request past the last page, which came back empty
  });

  it('stops when the service ignores the page parameter instead of looping', async () => {
    const { listPage, asked } = service({ cap: 5, headers: () => ({}), ignorePage: true });
    const all = await listAllUsers(listPage, { perPage: 10 });
    expect(all).toHaveLength(5);
    expect(asked).toEqual([1, 2]);
  });

  it('with full pagination headers asks exactly for the pages that exist', async () => {
    const { listPage, asked } = service({ cap: 100, headers: () => ({ total: '23', 'total-pages': '3' }) });
    expect(await listAllUsers(listPage, { perPage: 10 })).toHaveLength(23);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('reports progress page by page', async () => {
    const { listPage } = service({ cap: 100, headers: () => ({ total: '23', 'total-pages': '3' }) });
    const seen: string[] = [];
    await listAllUsers(listPage, { perPage: 10, onProgress: (p) => seen.push(`${p.page}/${p.totalPages}:${p.collected}`) });
    expect(seen).toEqual(['1/3:10', '2/3:20', '3/3:23']);
  });

  it('stops between pages once its signal is aborted, asking for no further page', async () => {
    const { listPage, asked } = service({ cap: 100, headers: () => ({ total: '23', 'total-pages': '3' }) });
    const controller = new AbortController();
    const seen: number[] = [];
    const walk = listAllUsers(listPage, {
      perPage: 5,
      signal: controller.signal,
      onProgress: ({ page }) => {
        seen.push(page);
        if (page === 2) controller.abort();
      },
    });
    const stopped = await walk.catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(PrivacyDeskError);
    expect((stopped as PrivacyDeskError).code).toBe('CANCELLED');
    expect((stopped as PrivacyDeskError).message).toMatch(/stopped after 2 pages/);
    expect(seen).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });
});

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
      concurrency: 1,
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

  it('asks for the largest page the service allows (100) unless told otherwise', async () => {
    const sizes: number[] = [];
    await listAllUsers(async ({ page = 1, perPage = 10 }) => {
      sizes.push(perPage);
      return { users: [], page, perPage, hasNext: false };
    });
    expect(sizes).toEqual([100]);
  });
});

/** 1,000 records served 10 a page with a total, each answer released by hand so concurrency can be watched. */
function slowService(failures: Map<number, number> = new Map()) {
  const records = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, uid: `u-${i + 1}` }));
  let inFlight = 0;
  let mostInFlight = 0;
  const asked: number[] = [];
  const listPage = async ({ page = 1, perPage = 10 }: ListUsersInput): Promise<UserPage> => {
    asked.push(page);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight -= 1;
    const left = failures.get(page) ?? 0;
    if (left > 0) {
      failures.set(page, left - 1);
      throw new PrivacyDeskError({ code: 'SERVER_ERROR', status: 503, message: 'The service answered 503.' });
    }
    const body = records.slice((page - 1) * perPage, page * perPage);
    return parseUserPage(body, new Headers({ total: '1000' }), { page, perPage });
  };
  return { listPage, asked, mostInFlight: () => mostInFlight };
}

describe('listAllUsers with a known total', () => {
  it('asks for several pages at once, never more than its concurrency, and keeps page order', async () => {
    const service = slowService();
    const all = await listAllUsers(service.listPage, { perPage: 10, concurrency: 4 });
    expect(all.map((u) => u.uid)).toEqual(Array.from({ length: 1000 }, (_, i) => `u-${i + 1}`));
    expect(service.mostInFlight()).toBe(4);
    expect([...service.asked].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('walks one page at a time with a concurrency of 1', async () => {
    const service = slowService();
    await listAllUsers(service.listPage, { perPage: 10, concurrency: 1 });
    expect(service.mostInFlight()).toBe(1);
  });

  it('asks a page that failed four times again, with backoff, and completes the walk', async () => {
    const service = slowService(new Map([[37, 4]]));
    const waits: number[] = [];
    let clock = 0;
    const all = await listAllUsers(service.listPage, {
      perPage: 10,
      pageRetry: { sleep: async (ms) => void waits.push((clock += ms)), now: () => clock, random: () => 0, budgetMs: 60_000 },
    });
    expect(all).toHaveLength(1000);
    expect(service.asked.filter((page) => page === 37)).toHaveLength(5);
    expect(waits).toHaveLength(4);
  });

  it('gives up on a page that keeps failing once its time budget is spent, saying so', async () => {
    const service = slowService(new Map([[3, 1000]]));
    let clock = 0;
    const failed = await listAllUsers(service.listPage, {
      perPage: 10,
      pageRetry: { sleep: async (ms) => void (clock += ms), now: () => clock, random: () => 1, budgetMs: 10_000, maxRetries: 50 },
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(PrivacyDeskError);
    // What the last attempt met (a 503), and the limit it gave up at.
    expect((failed as PrivacyDeskError).code).toBe('SERVER_ERROR');
    expect((failed as PrivacyDeskError).message).toMatch(/^Gave up after \d+ attempts in [\d.]+ s: a page of the list is asked for again for up to 10 s\. The last attempt: /);
  });

  it('stops asking once cancelled, even with pages in flight', async () => {
    const service = slowService();
    const controller = new AbortController();
    const stopped = await listAllUsers(service.listPage, {
      perPage: 10,
      signal: controller.signal,
      onProgress: ({ page }) => {
        if (page === 10) controller.abort();
      },
    }).catch((error: unknown) => error);
    expect((stopped as PrivacyDeskError).code).toBe('CANCELLED');
    expect(service.asked.length).toBeLessThan(15);
  });
});

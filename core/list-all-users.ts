import { PrivacyDeskError } from '../shared/errors';
import { msg } from '../shared/messages';
import { MAX_PER_PAGE, type ListUsersInput, type UserPage, type UserRecord } from '../shared/users';
import { realSleep, withRetry } from './retry';

export interface ListAllProgress {
  /** Pages read so far (with several at once, not necessarily the highest page number). */
  page: number;
  collected: number;
  totalPages?: number;
}

export interface ListAllOptions {
  /** Default the largest page the service allows (100): a full walk makes as few requests as it can. */
  perPage?: number;
  onProgress?: (progress: ListAllProgress) => void;
  /** Checked before each page is asked for: once aborted, no further request is sent. */
  signal?: AbortSignal;
  /** Pages asked for at once when the first page tells how many there are (default 4); 1 walks one by one. */
  concurrency?: number;
  /** Retrying a page that still fails after the lister's own retries; `false` turns it off. */
  pageRetry?: PageRetryOptions | false;
}

export interface PageRetryOptions {
  /** The most one page may take, its retries and waits included (default 2 minutes). */
  budgetMs?: number;
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

// A runaway guard: a service that always says "next" must not loop forever.
const MAX_PAGES = 100_000;
export const DEFAULT_WALK_CONCURRENCY = 4;
const DEFAULT_PAGE_BUDGET_MS = 120_000;
const DEFAULT_PAGE_RETRIES = 8;

/**
 * Walks every page of users, for the search index, `users list --all` and batch work.
 * When the first page says how many pages there are, the rest are asked for a few at
 * once; otherwise one by one. Erring on the side of completeness: when the service
 * gives no paging information, a short page is followed by one more request to
 * confirm it was the last (the service may cap per_page silently:
 * docs/SERVICE-API.md#page-size-and-the-silent-cap); a page that brings no user not
 * seen before ends the walk, so a service that ignores `page` cannot loop us.
 * Reading is safe to repeat, so a page that still fails after the lister's retries
 * is asked again with backoff within a time budget, rather than failing the walk.
 * An aborted `signal` stops it between pages with a CANCELLED error.
 */
export async function listAllUsers(listPage: (input: ListUsersInput) => Promise<UserPage>, options: ListAllOptions = {}): Promise<UserRecord[]> {
  const perPage = options.perPage ?? MAX_PER_PAGE;
  const fetchPage = pageFetcher(listPage, perPage, options);
  const all: UserRecord[] = [];
  const seen = new Set<string>();
  let pagesRead = 0;
  const take = (result: UserPage): number => {
    const fresh = result.users.filter((user) => {
      const key = userKey(user);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    all.push(...fresh);
    return fresh.length;
  };
  const report = (totalPages: number | undefined, collected = all.length) => {
    pagesRead += 1;
    options.onProgress?.({ page: pagesRead, collected, ...(totalPages !== undefined ? { totalPages } : {}) });
  };

  if (options.signal?.aborted) throw walkStopped(0);
  const first = await fetchPage(1);
  const firstFresh = take(first);
  report(first.totalPages);
  let last = first;
  let lastFresh = firstFresh;
  let page = 1;
  const knownPages = pagesFromFirst(first);
  if (firstFresh > 0 && knownPages !== undefined && knownPages > 1 && (options.concurrency ?? DEFAULT_WALK_CONCURRENCY) > 1) {
    let arrived = all.length;
    const results = await fetchInParallel(fetchPage, 2, Math.min(knownPages, MAX_PAGES), options, (result) => {
      // Pages arrive out of order: counted as they come (before removing repeats), kept in page order below.
      arrived += result.users.length;
      report(result.totalPages ?? first.totalPages, arrived);
    }, () => pagesRead);
    // Cancelled while the last pages were in flight: the walk still ends as cancelled, as the operator asked.
    if (options.signal?.aborted) throw walkStopped(pagesRead);
    for (const result of results) {
      lastFresh = take(result);
      last = result;
    }
    page = knownPages;
  }
  while (shouldGoOn(last, lastFresh, all.length, perPage) && page < MAX_PAGES) {
    page += 1;
    if (options.signal?.aborted) throw walkStopped(pagesRead);
    last = await fetchPage(page);
    lastFresh = take(last);
    report(last.totalPages);
  }
  return all;
}

/** How many pages the first page says there are: its total pages, or its total over the size it really served. */
function pagesFromFirst(first: UserPage): number | undefined {
  if (first.totalPages !== undefined) return first.totalPages;
  if (first.total !== undefined && first.users.length > 0) return Math.ceil(first.total / first.users.length);
  return undefined;
}

function shouldGoOn(result: UserPage, fresh: number, collected: number, perPage: number): boolean {
  if (fresh === 0) return false;
  if (result.hasNext) return true;
  const saysNothing = result.total === undefined && result.totalPages === undefined;
  const shortPage = result.users.length < perPage;
  const fewerThanTotal = result.total !== undefined && collected < result.total;
  return (saysNothing && shortPage) || fewerThanTotal;
}

/** Pages `from`..`to`, at most `concurrency` in flight; answers them in page order. */
async function fetchInParallel(
  fetchPage: (page: number) => Promise<UserPage>,
  from: number,
  to: number,
  options: ListAllOptions,
  onPage: (result: UserPage) => void,
  pagesRead: () => number,
): Promise<UserPage[]> {
  const results: UserPage[] = new Array<UserPage>(to - from + 1);
  let next = from;
  let failure: unknown;
  const worker = async () => {
    while (next <= to && failure === undefined) {
      if (options.signal?.aborted) {
        failure ??= walkStopped(pagesRead());
        return;
      }
      const page = next;
      next += 1;
      try {
        const result = await fetchPage(page);
        results[page - from] = result;
        onPage(result);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? DEFAULT_WALK_CONCURRENCY, to - from + 1));
  await Promise.all(Array.from({ length: width }, worker));
  if (failure !== undefined) throw failure;
  return results;
}

function pageFetcher(listPage: (input: ListUsersInput) => Promise<UserPage>, perPage: number, options: ListAllOptions): (page: number) => Promise<UserPage> {
  if (options.pageRetry === false) return (page) => listPage({ page, perPage });
  const retry = options.pageRetry ?? {};
  const now = retry.now ?? Date.now;
  return (page) =>
    withRetry(
      async () => {
        if (options.signal?.aborted) throw walkStopped(0);
        return listPage({ page, perPage });
      },
      {
        maxRetries: retry.maxRetries ?? DEFAULT_PAGE_RETRIES,
        sleep: retry.sleep ?? realSleep,
        ...(retry.random ? { random: retry.random } : {}),
        budget: { totalMs: retry.budgetMs ?? DEFAULT_PAGE_BUDGET_MS, now },
      },
    );
}

function walkStopped(pagesRead: number): PrivacyDeskError {
  return new PrivacyDeskError({
    code: 'CANCELLED',
    text: msg('list.walkStopped', { count: pagesRead }),
  });
}

function userKey(user: UserRecord): string {
  const id = user.fields.id;
  if (typeof id === 'number' || typeof id === 'string') return `id:${id}`;
  if (user.uid !== null) return `uid:${user.uid}`;
  return `record:${JSON.stringify(user.fields)}`;
}

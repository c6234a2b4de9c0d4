import { PrivacyDeskError } from '../shared/errors';
import type { ListUsersInput, UserPage, UserRecord } from '../shared/users';

export interface ListAllProgress {
  page: number;
  collected: number;
  totalPages?: number;
}

// A runaway guard: a service that always says "next" must not loop forever.
const MAX_PAGES = 100_000;

/**
 * Walks every page of users, for `users list --all` and batch work. Erring on
 * the side of completeness: when the service gives no paging information, a
 * short page is followed by one more request to confirm it was the last
 * (the service may cap per_page silently: docs/SERVICE-API.md#page-size-and-the-silent-cap); a page that brings no user not seen
 * before ends the walk, so a service that ignores `page` cannot loop us.
 * An aborted `signal` stops it between pages with a CANCELLED error; a page
 * already asked for is still read and reported.
 */
export async function listAllUsers(
  listPage: (input: ListUsersInput) => Promise<UserPage>,
  options: {
    perPage: number;
    onProgress?: (progress: ListAllProgress) => void;
    /** Checked before each page is asked for: once aborted, no further request is sent. */
    signal?: AbortSignal;
  },
): Promise<UserRecord[]> {
  const all: UserRecord[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    if (options.signal?.aborted) throw walkStopped(page - 1);
    const result = await listPage({ page, perPage: options.perPage });
    const fresh = result.users.filter((user) => {
      const key = userKey(user);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    all.push(...fresh);
    options.onProgress?.({ page, collected: all.length, totalPages: result.totalPages });
    if (fresh.length === 0) break;
    if (result.hasNext) continue;
    const saysNothing = result.total === undefined && result.totalPages === undefined;
    const shortPage = result.users.length < options.perPage;
    const fewerThanTotal = result.total !== undefined && all.length < result.total;
    if ((saysNothing && shortPage) || fewerThanTotal) continue;
    break;
  }
  return all;
}

function walkStopped(pagesRead: number): PrivacyDeskError {
  return new PrivacyDeskError({
    code: 'CANCELLED',
    message: `The walk through the users list was stopped after ${pagesRead} page${pagesRead === 1 ? '' : 's'}, as asked. Start it again to read every page.`,
  });
}

function userKey(user: UserRecord): string {
  const id = user.fields.id;
  if (typeof id === 'number' || typeof id === 'string') return `id:${id}`;
  if (user.uid !== null) return `uid:${user.uid}`;
  return `record:${JSON.stringify(user.fields)}`;
}

import type { ListUsersInput, UserPage, UserRecord } from '../../shared/users';
import { listAllUsers, type ListAllProgress, type PageRetryOptions } from '../list-all-users';

export interface ServiceUids {
  /** Every uid the walk met, as the service holds it. */
  uids: string[];
  /** Users met without a uid (anonymised). */
  withoutUid: number;
  pages: number;
}

export interface ServiceWalkOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ListAllProgress) => void;
  pageRetry?: PageRetryOptions | false;
  concurrency?: number;
}

/**
 * Every page of the service's users through the one walker (core/list-all-users.ts), each user cut down as its
 * page arrives to what the walk needs to tell users apart (its uid and id): a reconciliation of 100,000 users
 * holds 100,000 short records for the length of the walk, not 100,000 service records.
 */
export async function walkServiceUids(listPage: (input: ListUsersInput) => Promise<UserPage>, options: ServiceWalkOptions = {}): Promise<ServiceUids> {
  let pages = 0;
  const users = await listAllUsers(async (input) => slim(await listPage(input)), {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.pageRetry !== undefined ? { pageRetry: options.pageRetry } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    onProgress: (progress) => {
      pages = progress.page;
      options.onProgress?.(progress);
    },
  });
  const uids: string[] = [];
  let withoutUid = 0;
  for (const user of users) {
    if (user.uid === null) withoutUid += 1;
    else uids.push(user.uid);
  }
  return { uids, withoutUid, pages };
}

function slim(page: UserPage): UserPage {
  return { ...page, users: page.users.map(slimUser) };
}

/** The walker tells users apart by id, else uid, else the whole record (kept whole only then). */
function slimUser(user: UserRecord): UserRecord {
  const id = user.fields.id;
  const keepsId = typeof id === 'number' || typeof id === 'string';
  return {
    uid: user.uid,
    fullName: null,
    email: null,
    createdAt: null,
    messagesCount: null,
    votesCount: null,
    fields: keepsId ? { id } : user.uid !== null ? {} : user.fields,
  };
}

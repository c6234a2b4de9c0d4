import type { Desk } from '../core/desk';
import { listAllUsers } from '../core/list-all-users';
import { WALK_SAMPLE_SIZE, type UsersWalkResult } from '../shared/jobs';
import type { JobControl } from './jobs';
import type { AreaHandlers, HandlerContext } from './types';

async function walkUsers(desk: Pick<Desk, 'listUsers'>, profileId: string, perPage: number, job: JobControl<'users.walk'>): Promise<UsersWalkResult> {
  let pages = 0;
  const users = await listAllUsers((input) => desk.listUsers(profileId, input), {
    perPage,
    // One page at a time, one progress event per page in order; the search's walk (users.index) reads several at once.
    concurrency: 1,
    signal: job.signal,
    onProgress: ({ page, totalPages, collected }) => {
      pages = page;
      job.progress({ page, collected, ...(totalPages !== undefined ? { totalPages } : {}) });
    },
  });
  // A count and a sample: the finished event must stay small however long the list is.
  const firstUids = users.flatMap((user) => (user.uid === null ? [] : [user.uid])).slice(0, WALK_SAMPLE_SIZE);
  return { users: users.length, pages, firstUids };
}

export function jobHandlers({ desk, jobs }: HandlerContext): AreaHandlers<'users.walk' | 'users.index' | 'users.search' | 'users.lookup' | 'users.forgetIndex' | 'users.erasedSince' | 'jobs.cancel'> {
  return {
    'users.walk': async ({ profileId, perPage }) => ({ jobId: jobs.start('users.walk', (job) => walkUsers(desk, profileId, perPage, job)) }),
    'users.index': async ({ profileId }) => ({
      jobId: jobs.start('users.index', (job) =>
        desk.indexUsers(profileId, {
          signal: job.signal,
          onProgress: ({ page, collected, totalPages }) => job.progress({ page, collected, ...(totalPages !== undefined ? { totalPages } : {}) }),
        }),
      ),
    }),
    'users.search': ({ profileId, text, limit }) => desk.searchUsers(profileId, text, limit),
    'users.lookup': ({ profileId, uid }) => desk.lookupUser(profileId, uid),
    'users.forgetIndex': async ({ profileId }) => ({ forgotten: desk.forgetUserIndex(profileId) }),
    'users.erasedSince': ({ profileId, uids, since }) => desk.erasedSince(profileId, uids, since),
    'jobs.cancel': async ({ jobId }) => ({ cancelled: jobs.cancel(jobId) }),
  };
}

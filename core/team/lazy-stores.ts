import type { AuditEntry } from '../../shared/audit';
import type { AuditFeedNews, AuditFeedSource, AuditStore } from '../audit-store';
import type { BatchJobStore } from '../batch/batch-job-store';
import { isPrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { AuditWriteError } from '../audit-write-error';
import { teamAuditWriteError } from './pg-audit-write-error';

/**
 * Opening the team database is asynchronous and may fail (the server is down, the network cut), while the Desk is
 * built at once and must start either way (the console opens with the database away; a command that does not need
 * it runs). So team mode's stores are opened on first use: every call waits for the opening, a failed opening
 * throws its typed error (TEAM_STORE_UNAVAILABLE, not-sent) to that call, and the next call tries again.
 */
export function onFirstUse<T>(open: () => Promise<T>): { get(): Promise<T>; now(): T | undefined } {
  let opening: Promise<T> | undefined;
  let opened: T | undefined;
  return {
    get() {
      if (!opening) {
        opening = open().then(
          (value) => (opened = value),
          (error: unknown) => {
            opening = undefined; // tried again at the next call
            throw error;
          },
        );
      }
      return opening;
    },
    now: () => opened,
  };
}

/** An AuditStore whose calls wait for the real one; until it is open, nothing is pending and the feed is empty. */
export function lazyAuditStore(where: string, store: () => Promise<AuditStore>, openedStore: () => AuditStore | undefined): AuditStore {
  // A write that cannot open the database fails as the team trail's own writes do, so the gate words it alike (not sent).
  const writer = () => store().catch((error: unknown) => Promise.reject(openingWriteError(where, error)));
  return {
    where,
    append: async (entry: AuditEntry) => (await writer()).append(entry),
    appendMany: async (entries) => (await writer()).appendMany(entries),
    appendAfterLast: async (build) => (await writer()).appendAfterLast(build),
    list: async (limit) => (await store()).list(limit),
    read: async () => (await store()).read(),
    verify: async (anchor) => (await store()).verify(anchor),
    flushPending: async () => {
      const open = openedStore();
      return open ? open.flushPending() : 0;
    },
    get pendingCount() {
      return openedStore()?.pendingCount ?? 0;
    },
    pendingEntries: () => openedStore()?.pendingEntries() ?? [],
    settle: async () => openedStore()?.settle(),
    feed(): AuditFeedSource {
      // The real feed starts where the trail ends when it is made: made on the first call, which reports nothing new.
      let real: AuditFeedSource | undefined;
      return {
        async next(): Promise<AuditFeedNews> {
          if (real) return real.next();
          const open = openedStore() ?? (await store().catch(() => undefined));
          if (open) real = open.feed();
          return { lines: [], lostTrack: false };
        },
      };
    },
  };
}

function openingWriteError(where: string, error: unknown): AuditWriteError {
  if (isPrivacyDeskError(error) && error.text?.id === 'teamMode.noPassword') {
    return new AuditWriteError(where, msg('teamMode.why.noPassword'), msg('teamMode.fix.password'), undefined, error, 'TEAM_STORE_UNAVAILABLE');
  }
  return teamAuditWriteError(where, error);
}

/**
 * Any store whose members are all methods returning promises (the request register): each
 * call waits for the real store, then calls it.
 */
export function lazyAsyncMethods<T extends object>(store: () => Promise<T>): T {
  return new Proxy({} as T, {
    get(_target, name) {
      if (name === 'then') return undefined; // not a promise itself
      return async (...args: unknown[]) => {
        const real = (await store()) as Record<string | symbol, unknown>;
        const member = real[name];
        if (typeof member !== 'function') return member;
        return (member as (...given: unknown[]) => unknown).apply(real, args);
      };
    },
  });
}

/** The batch job store of team mode, opened on first use (its iterables wait for the opening before their first item). */
export function lazyBatchJobs(where: string, store: () => Promise<BatchJobStore>, openedStore: () => BatchJobStore | undefined): BatchJobStore {
  async function* wait<T>(items: (real: BatchJobStore) => AsyncIterable<T>): AsyncGenerator<T> {
    yield* items(await store());
  }
  return {
    kind: 'team',
    where,
    createJob: async (plan, options) => (await store()).createJob(plan, options),
    resumeJob: async (jobId, options) => (await store()).resumeJob(jobId, options),
    readJobState: async (jobId) => (await store()).readJobState(jobId),
    readItems: (jobId) => wait((real) => real.readItems(jobId)),
    listJobs: async () => (await store()).listJobs(),
    jobRunner: async (jobId) => (await store()).jobRunner(jobId),
    readResults: (jobId) => wait((real) => real.readResults(jobId)),
    exportResults: async (jobId, format, options) => (await store()).exportResults(jobId, format, options),
    // Asked only about a job whose state was just read, so the store is open by then.
    journalDamage: (jobId, corruptLines) => {
      const real = openedStore();
      if (!real) throw new Error('the team batch store was asked about a job before it was opened');
      return real.journalDamage(jobId, corruptLines);
    },
  };
}

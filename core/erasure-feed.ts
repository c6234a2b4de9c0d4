import { checkBaseUrl } from '../shared/profile';
import type { AuditStage, AuditVia } from '../shared/audit';
import type { ErasedSinceAnswer, RecordedErasure } from '../shared/user-search';
import type { ErasureAction } from '../shared/users';
import { fileAuditFeed } from './audit-feed-file';
import type { AuditFeedSource } from './audit-store';

/** One erasure read from the audit trail, with where it was sent. */
export interface FeedErasure extends RecordedErasure {
  uid: string;
  profileId: string;
  /** The service address, normalised (serviceKey): a CLI run with --base-url has its own profile id. */
  service: string;
}

interface FeedCommonOptions {
  /** How many erasures are remembered for lookups; past it they are forgotten and the feed says it lost track. */
  memoryLimit?: number;
  /** This process's clock: when the feed lost track, so a page read before that is not vouched for. */
  now?: () => number;
}

/**
 * Where the entries come from: the audit store's own feed (AuditStore.feed(): the file or the team database), or
 * audit.jsonl of the data folder every process on this computer writes to, read `chunkBytes` at a time.
 */
export type ErasureFeedOptions = FeedCommonOptions & ({ source: AuditFeedSource } | { path: string; chunkBytes?: number });

export type ErasureFeed = ReturnType<typeof createErasureFeed>;

/** What a poll brought: new erasures, or `lostTrack` when the trail was replaced or shrank (anything may have changed). */
export interface FeedNews {
  erasures: FeedErasure[];
  lostTrack: boolean;
}

const ERASURE_ACTIONS: readonly string[] = ['anonymize', 'delete'] satisfies ErasureAction[];

/** The same service however its address was written (trailing slash, /api/v1, case of the host). */
export function serviceKey(baseUrl: string): string {
  const checked = checkBaseUrl(baseUrl);
  return checked.ok ? checked.baseUrl : baseUrl.trim();
}

/**
 * The audit trail as a change feed: every process that erases (the console, the CLI, a batch; in team mode, on any
 * desktop) appends to the same trail, so reading what was appended since the last poll tells which users are gone.
 * The source starts at the trail's end when created and brings only what came after (core/audit-feed-file.ts reads
 * audit.jsonl by offset, a line once it is whole; the team database by sequence number). An entry counts when the user may no longer be there: done, unknown (it may have
 * happened), a refusal because the service did not know the uid, a verification. Attempts, refusals for other
 * reasons and acts never sent change nothing.
 */
export function createErasureFeed(options: ErasureFeedOptions) {
  const memoryLimit = options.memoryLimit ?? 200_000;
  const now = options.now ?? Date.now;
  // When it last lost track (the trail replaced or cut, or too much to remember): erasures before are forgotten.
  let lostTrackAt: number | undefined;
  const source = 'source' in options ? options.source : fileAuditFeed(options.path, options.chunkBytes);
  // uid → the latest erasure per profile or service (a uid is rarely erased on more than one).
  const remembered = new Map<string, FeedErasure[]>();
  let rememberedCount = 0;
  let polling: Promise<FeedNews> | null = null;

  const remember = (erasure: FeedErasure) => {
    const list = remembered.get(erasure.uid) ?? [];
    const same = list.findIndex((e) => e.profileId === erasure.profileId && e.service === erasure.service);
    if (same >= 0) list[same] = erasure;
    else {
      list.push(erasure);
      rememberedCount += 1;
    }
    remembered.set(erasure.uid, list);
  };

  const readNews = async (): Promise<FeedNews> => {
    const { lines, lostTrack } = await source.next();
    const erasures: FeedErasure[] = [];
    for (const line of lines) {
      const erasure = erasureOf(line);
      if (erasure) erasures.push(erasure);
    }
    return { erasures, lostTrack };
  };

  const latestErasure = (uid: string, profileId: string, service: string): RecordedErasure | undefined => {
    let latest: FeedErasure | undefined;
    for (const e of remembered.get(uid) ?? []) {
      if ((e.profileId === profileId || e.service === service) && (!latest || e.at > latest.at)) latest = e;
    }
    return latest ? { action: latest.action, at: latest.at, via: latest.via, outcome: latest.outcome } : undefined;
  };

  return {
    /** Reads what was appended since the last poll; concurrent callers share one read. */
    async poll(): Promise<FeedNews> {
      if (polling) return polling;
      polling = readNews()
        .then((news) => {
          if (news.lostTrack) forgetAll();
          for (const erasure of news.erasures) remember(erasure);
          if (rememberedCount > memoryLimit) {
            forgetAll();
            return { erasures: news.erasures, lostTrack: true };
          }
          return news;
        })
        .finally(() => {
          polling = null;
        });
      return polling;
    },

    /**
     * Which of these uids (a page's) the trail recorded an erasure of at or after `sinceMs` (when the page was
     * read, this process's clock), on this profile or this service: the latest of each, in the order asked.
     * `complete` is false when the feed lost track since then: an erasure may have gone unseen.
     */
    erasuresSince(uids: readonly string[], profileId: string, service: string, sinceMs: number): ErasedSinceAnswer {
      const erasures = uids.flatMap((uid) => {
        const erasure = latestErasure(uid, profileId, service);
        return erasure && Date.parse(erasure.at) >= sinceMs ? [{ uid, ...erasure }] : [];
      });
      return { erasures, complete: lostTrackAt === undefined || lostTrackAt < sinceMs };
    },

    /** The latest erasure of this uid recorded since start on this profile or this service, if any. */
    erasureOf: latestErasure,
  };

  function forgetAll() {
    remembered.clear();
    rememberedCount = 0;
    lostTrackAt = now();
  }
}

/** The erasure a line records, or undefined (another act, a stage that changes nothing, or not an entry at all). */
function erasureOf(line: string): FeedErasure | undefined {
  if (!line.includes('"uid"')) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!entry || typeof entry !== 'object') return undefined;
  const { action, outcome, uid, profileId, baseUrl, at, via, errorCode } = entry as Record<string, unknown>;
  if (typeof action !== 'string' || !ERASURE_ACTIONS.includes(action)) return undefined;
  if (typeof uid !== 'string' || uid === '' || typeof profileId !== 'string' || typeof baseUrl !== 'string') return undefined;
  if (!changesTheList(outcome, errorCode)) return undefined;
  return {
    uid,
    profileId,
    service: serviceKey(baseUrl),
    action: action as ErasureAction,
    at: typeof at === 'string' ? at : '',
    via: (via === 'cli' || via === 'batch' ? via : 'app') satisfies AuditVia,
    outcome: outcome as AuditStage,
  };
}

function changesTheList(outcome: unknown, errorCode: unknown): boolean {
  if (outcome === 'done' || outcome === 'unknown' || outcome === 'verification') return true;
  return outcome === 'refused' && errorCode === 'NOT_FOUND';
}

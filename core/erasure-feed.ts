import { statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { checkBaseUrl } from '../shared/profile';
import type { AuditStage, AuditVia } from '../shared/audit';
import type { ErasedSinceAnswer, RecordedErasure } from '../shared/user-search';
import type { ErasureAction } from '../shared/users';

/** One erasure read from the audit trail, with where it was sent. */
export interface FeedErasure extends RecordedErasure {
  uid: string;
  profileId: string;
  /** The service address, normalised (serviceKey): a CLI run with --base-url has its own profile id. */
  service: string;
}

export interface ErasureFeedOptions {
  /** audit.jsonl of the data folder every process on this computer writes to. */
  path: string;
  /** How many erasures are remembered for lookups; past it they are forgotten and the feed says it lost track. */
  memoryLimit?: number;
  /** Bytes read at a time. */
  chunkBytes?: number;
  /** This process's clock: when the feed lost track, so a page read before that is not vouched for. */
  now?: () => number;
}

export type ErasureFeed = ReturnType<typeof createErasureFeed>;

/** What a poll brought: new erasures, or `lostTrack` when the trail was replaced or shrank (anything may have changed). */
export interface FeedNews {
  erasures: FeedErasure[];
  lostTrack: boolean;
}

const MAX_LINE_BYTES = 1 << 20;
const ERASURE_ACTIONS: readonly string[] = ['anonymize', 'delete'] satisfies ErasureAction[];

/** The same service however its address was written (trailing slash, /api/v1, case of the host). */
export function serviceKey(baseUrl: string): string {
  const checked = checkBaseUrl(baseUrl);
  return checked.ok ? checked.baseUrl : baseUrl.trim();
}

/**
 * The audit trail as a change feed: every process that erases on this computer (the console, the CLI, a batch)
 * appends to the same audit.jsonl, so reading what was appended since the last poll tells which users are gone.
 * It starts at the file's end when created and reads only the new bytes (by offset), a line at a time once
 * the line is whole. An entry counts when the user may no longer be there: done, unknown (it may have
 * happened), a refusal because the service did not know the uid, a verification. Attempts, refusals for other
 * reasons and acts never sent change nothing.
 */
export function createErasureFeed(options: ErasureFeedOptions) {
  const memoryLimit = options.memoryLimit ?? 200_000;
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const now = options.now ?? Date.now;
  // When it last lost track (the trail replaced or cut, or too much to remember): erasures before are forgotten.
  let lostTrackAt: number | undefined;
  let { offset, inode } = startingPoint(options.path);
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
    let info;
    try {
      info = await stat(options.path);
    } catch {
      // No trail yet (or it was removed): a trail that comes back is read from its start.
      const lostTrack = offset > 0;
      offset = 0;
      inode = undefined;
      return { erasures: [], lostTrack };
    }
    let lostTrack = false;
    if ((inode !== undefined && info.ino !== inode) || info.size < offset) {
      // Replaced or cut: what was read before may not be there any more. Read the new file from its start.
      lostTrack = true;
      offset = 0;
    }
    inode = info.ino;
    if (info.size === offset) return { erasures: [], lostTrack };
    const erasures: FeedErasure[] = [];
    const handle = await open(options.path, 'r');
    try {
      let carry = Buffer.alloc(0);
      let position = offset;
      while (position < info.size) {
        const buffer = Buffer.alloc(Math.min(chunkBytes, info.size - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        const text = Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
        const lastNewline = text.lastIndexOf(0x0a);
        carry = lastNewline === -1 ? text : text.subarray(lastNewline + 1);
        if (lastNewline !== -1) {
          for (const line of text.subarray(0, lastNewline).toString('utf8').split('\n')) {
            const erasure = erasureOf(line);
            if (erasure) erasures.push(erasure);
          }
        }
        // No entry is this long: skip it (its end, read later, is not JSON and is ignored) rather than hold it.
        if (carry.length > MAX_LINE_BYTES) carry = Buffer.alloc(0);
        // A line still being written stays for the next poll: the offset stops after the last whole line.
        offset = position - carry.length;
      }
    } finally {
      await handle.close();
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

function startingPoint(path: string): { offset: number; inode: number | undefined } {
  try {
    const info = statSync(path);
    return { offset: info.size, inode: info.ino };
  } catch {
    return { offset: 0, inode: undefined };
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

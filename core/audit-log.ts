import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isPrivacyDeskError } from '../shared/errors';
import { AuditWriteError } from './audit-write-error';
import { diskProblem } from './disk-error';
import type { AnchorReport, AuditEntry, AuditReading } from '../shared/audit';
import { parseAuditText, readingOf } from './audit-reader';
import { moveTornTailAside, readTail, readWhole, summaryOfFile, writeChained, type AnnounceWrite, type FileState } from './audit-file';
import type { AnchorPlace, AuditAnchorRecord, AuditAnchorStore } from './audit-anchor';
import { adoptTrail, announceWrite, landedRecord, liveProblem, summarizeTrail } from './audit-anchor-check';
import { anchorReport, verdictWithAnchor } from './audit-anchor-verdict';
import { writeFingerprint } from './audit-anchor-crash';
import { landedConfirmations } from './audit-anchor-confirm';
import { isoWithOffset } from './local-time';
import { AUDIT_LOCK, withDataLock, type DataLockOptions } from './data-lock';
import { fileAuditFeed } from './audit-feed-file';
import type { AuditStore } from './audit-store';

export const AUDIT_FILE_NAME = 'audit.jsonl';

/** What the gate needs of a trail (core/service/erasure-gate.ts): any AuditStore is one; tests keep one in memory. */
export interface AuditLog extends Pick<AuditStore, 'append' | 'appendMany' | 'list'> {
  /** The file, for a trail kept in one. */
  readonly path?: string;
}

/** The data folder's audit.jsonl as an AuditStore (core/audit-store.ts); `where` is its path. */
export interface FileAuditLog extends AuditStore {
  readonly path: string;
}

/**
 * Under `ulimit -f` a write past the limit raises SIGXFSZ, whose default action kills the process
 * before any error can be handled (and before the act can be stopped). Ignoring it turns that write
 * into an ordinary EFBIG error. Done here, on the first use of an audit log, so every entry point
 * (CLI, app, web host, scripts) is covered without each having to remember it.
 */
let sigxfszIgnored = false;
function ignoreFileSizeSignal(): void {
  if (sigxfszIgnored || process.platform === 'win32') return;
  sigxfszIgnored = true;
  try {
    process.on('SIGXFSZ', () => undefined);
  } catch {
    // A platform without the signal has nothing to ignore.
  }
}

export interface AuditLogOptions extends DataLockOptions {
  /**
   * Where the chain's head is kept outside the file (core/audit-anchor.ts): updated under the audit lock before
   * each write lands, checked by read() and verify(). Without one the trail is checked against itself only.
   */
  anchor?: AuditAnchorStore;
  /** The clock for the anchor's dates (tests move it); default Date.now. */
  now?: () => number;
}

export function openAuditLog(dataDir: string, options: AuditLogOptions = {}): FileAuditLog {
  const { anchor, now = Date.now, ...lockOptions } = options;
  const path = join(dataDir, AUDIT_FILE_NAME);
  const pending: AuditEntry[] = [];
  let setAside: AuditReading['setAside'];
  // Why the last write could not keep the anchor (a keychain that stopped answering): said by verify, never blocking an act.
  let anchorTrouble: string | undefined;
  ignoreFileSizeSignal();
  const at = () => isoWithOffset(new Date(now()));

  const locked = <T>(task: Parameters<typeof withDataLock<T>>[2]): Promise<T> => withDataLock(dataDir, AUDIT_LOCK, task, lockOptions);

  // What this process last stored, and the file as its write left it: while the file is exactly so, no other
  // writer (app or CLI) and no hand has been there, so the record is still the keychain's and need not be read again.
  let lastAnchored: { record: AuditAnchorRecord; file: FileState } | undefined;
  // That a write landed, told a moment later unless the next write's announcement tells it first.
  const confirmations = anchor
    ? landedConfirmations(async (record, file) => {
        await locked(async () => {
          if (!sameFile(await fileState(path), file)) return;
          try {
            await anchor.write(record);
            lastAnchored = { record, file };
          } catch (error) {
            // Still consistent: the trail ends at the write the anchor knew under way.
            anchorTrouble = troubleOf(error);
          }
        });
      })
    : undefined;
  // Before each write lands: the anchor learns the head the trail has and the head the write makes (with the
  // fingerprint of its bytes); once it has landed, that it did. A write it still knows under way is one whose
  // writer stopped in between: a crash, told from a removal by what the crash left (core/audit-anchor-crash.ts).
  const announce: AnnounceWrite | undefined = anchor
    ? async (prev, next, file, bytes) => {
        try {
          confirmations?.cancel();
          const known = lastAnchored && sameFile(lastAnchored.file, file) ? lastAnchored.record : await anchor.read();
          const record = await announceWrite(known, prev, { ...next, write: writeFingerprint(bytes) }, () => summaryOfFile(path), at(), path);
          lastAnchored = undefined;
          await anchor.write(record);
          anchorTrouble = undefined;
          return {
            // A write that then fails leaves the trail at `prev`: the anchor says so too.
            failed: () => anchor.write({ ...record, next: undefined }),
            landed: async (after) => {
              lastAnchored = { record, file: after };
              confirmations?.schedule(landedRecord(record, at()), after);
            },
          };
        } catch (error) {
          lastAnchored = undefined;
          anchorTrouble = troubleOf(error);
          return undefined;
        }
      }
    : undefined;

  // Every writer, in this process or another (app, CLI), appends under the audit lock: lines never
  // interleave, and the last line read here is still the last one when ours lands.
  // `build` null writes only the kept entries; `keep` is the entry to keep when this write fails.
  const appendBuilt = async (build: ((lastLine: string | null) => AuditEntry | readonly AuditEntry[]) | null, keep: readonly AuditEntry[] = []): Promise<void> => {
    try {
      await locked(async (hold) => {
        const handle = await open(path, 'a+', 0o600);
        try {
          let tail = await readTail(handle);
          if (!tail.endsWithNewline) {
            setAside = await moveTornTailAside(handle, path, tail);
            tail = { ...tail, size: tail.cleanEnd, endsWithNewline: true };
          }
          // Outcomes kept from an earlier failure go first, in order: they happened first.
          while (pending.length > 0) {
            hold.assertHeld();
            tail = await writeChained(handle, tail, [pending[0] as AuditEntry], path, announce);
            pending.shift();
          }
          if (!build) return;
          const built = build(tail.lastLine);
          hold.assertHeld();
          await writeChained(handle, tail, Array.isArray(built) ? built : [built as AuditEntry], path, announce);
        } finally {
          await handle.close().catch(() => undefined);
        }
      });
    } catch (error) {
      pending.push(...keep);
      throw isPrivacyDeskError(error) ? error : notWritten(path, error);
    }
  };

  /** The file's text, read under the lock (a torn last line moved aside first when asked), and what `then` makes of it there. */
  const snapshot = async <T>(moveTorn: boolean, then: (text: string) => Promise<T>): Promise<T> => {
    let read: { text: string } | undefined;
    try {
      return await locked(async () => {
        let handle: FileHandle;
        try {
          handle = await open(path, 'r+');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          read = { text: '' };
          return then('');
        }
        try {
          const tail = await readTail(handle);
          if (moveTorn && !tail.endsWithNewline) setAside = await moveTornTailAside(handle, path, tail);
          read = { text: await readFile(path, 'utf8') };
        } finally {
          await handle.close().catch(() => undefined);
        }
        return then(read.text);
      });
    } catch (error) {
      if (read) throw error;
      // No lock (a read-only folder, a busy lock) or no write access: read as it is, move nothing.
      return then(await readWhole(path));
    }
  };

  /** The chain's verdict on `text`, then the anchor's view of the same text (adopting the trail when no anchor is kept yet). */
  const judged = async (text: string, headAnchor?: string, moved?: AuditReading['setAside']): Promise<AuditReading> => {
    const reading = readingOf(text, moved, headAnchor);
    if (!anchor) return reading;
    const trail = summarizeTrail(parseAuditText(text).chainLines, text);
    let place: AnchorPlace = { kind: 'session' };
    try {
      place = await anchor.where();
      let record = await anchor.read();
      let state: AnchorReport['state'] = 'checked';
      if (!record) {
        record = adoptTrail(trail, at());
        await anchor.write(record);
        state = 'adopted';
      }
      const report = anchorReport(place, record, state);
      // What the data folder shows of a write never confirmed is looked for only when the chain itself holds.
      const live = reading.verdict.ok ? await liveProblem(trail, record, path) : null;
      return { ...reading, verdict: verdictWithAnchor(reading.verdict, trail, record, anchorTrouble ? { ...report, problem: anchorTrouble } : report, live) };
    } catch (error) {
      return { ...reading, verdict: { ...reading.verdict, anchor: { store: place.kind, state: 'unavailable', problem: troubleOf(error), findings: 0 } } };
    }
  };

  return {
    path,
    where: path,
    feed: () => fileAuditFeed(path),
    // An 'attempted' entry that cannot be written stops the act; any other records an act that happened.
    append: (entry) => appendBuilt(() => entry, entry.outcome === 'attempted' ? [] : [entry]),
    appendMany: (entries) => (entries.length === 0 ? Promise.resolve() : appendBuilt(() => entries, entries.filter((entry) => entry.outcome !== 'attempted'))),
    appendAfterLast: (build) => appendBuilt(build),
    read: () => snapshot(true, (text) => judged(text, undefined, setAside)),
    async verify(headAnchor) {
      return (await snapshot(false, (text) => judged(text, headAnchor))).verdict;
    },
    async flushPending() {
      if (pending.length === 0) return 0;
      await appendBuilt(null).catch(() => undefined);
      return pending.length;
    },
    get pendingCount() {
      return pending.length;
    },
    pendingEntries: () => [...pending],
    settle: () => confirmations?.settle() ?? Promise.resolve(),
    async list(limit = 200) {
      const { entries } = parseAuditText(await readWhole(path));
      return entries
        .map(({ line: _line, ...entry }) => entry as AuditEntry)
        .reverse()
        .slice(0, Math.max(0, limit));
    },
  };
}

const sameFile = (a: FileState, b: FileState): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** The file's state now; a missing file matches no write's. */
async function fileState(path: string): Promise<FileState> {
  try {
    const { size, mtimeMs, ino } = await stat(path);
    return { size, mtimeMs, ino };
  } catch {
    return { size: -1, mtimeMs: -1, ino: -1 };
  }
}

/** Why the anchor could not be used, in words (a keychain's message carries no secret). */
function troubleOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `the anchor could not be read or kept (${text.replace(/\s+/g, ' ').slice(0, 200)})`;
}

function notWritten(path: string, error: unknown): AuditWriteError {
  const { why, fix, systemCode } = diskProblem(error, 'audit.why.fileTooBig');
  return new AuditWriteError(path, why, fix, systemCode, error);
}

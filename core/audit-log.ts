import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isPrivacyDeskError } from '../shared/errors';
import { AuditWriteError } from './audit-write-error';
import { diskProblem } from './disk-error';
import type { AuditEntry, AuditReading, ChainVerdict } from '../shared/audit';
import { isChained, linkAfter, sha256Hex, startChain, type ChainLink } from './audit-chain';
import { entryProblem, parseAuditText, readingOf } from './audit-reader';
import { parseBoundedJson } from './bounded-json';
import { AUDIT_LOCK, withDataLock, type DataLockOptions } from './data-lock';

export const AUDIT_FILE_NAME = 'audit.jsonl';

export interface AuditLog {
  readonly path: string;
  /**
   * Appends one entry, chained to the last, written whole and fsynced; throws when it could not be
   * recorded (callers must then not act). An entry other than 'attempted' that cannot be written is
   * kept in memory and written before the next entry (or by flushPending): the act it records happened.
   */
  append(entry: AuditEntry): Promise<void>;
  /**
   * Appends several entries in order as ONE write and ONE fsync (a batch groups its records so fsync does not
   * limit it); all or nothing. Entries other than 'attempted' are kept, as with append, when the write fails.
   */
  appendMany(entries: readonly AuditEntry[]): Promise<void>;
  /** Newest first, readable entries only (legacy outcomes as stored). */
  list(limit?: number): Promise<AuditEntry[]>;
}

/** The file-backed log also lets an entry depend on the line before it. */
export interface FileAuditLog extends AuditLog {
  /**
   * Like append, but builds the entry from the file's last complete line (exactly as stored, without
   * its newline; null when there is none), read under the same cross-process lock as the write.
   * The chain fields are added to what `build` returns.
   */
  appendAfterLast(build: (lastLine: string | null) => AuditEntry): Promise<void>;
  /** Every line read on its own; a torn last line is moved aside first (under the lock). */
  read(): Promise<AuditReading>;
  /** Read-only check of the chain (a torn last line is reported, not moved); `anchor`: a head hash the chain must still hold. */
  verify(anchor?: string): Promise<ChainVerdict>;
  /** Writes the outcome entries kept after a failed write; returns how many are still waiting. */
  flushPending(): Promise<number>;
  readonly pendingCount: number;
  /** The entries still waiting, oldest first. */
  pendingEntries(): readonly AuditEntry[];
}

// Only these fields reach the file, whatever the caller passes: nothing secret can ride along.
const AUDIT_FIELDS = ['at', 'actId', 'action', 'outcome', 'uid', 'reference', 'profileId', 'profileName', 'baseUrl', 'operator', 'appVersion', 'via', 'jobId', 'pastedUid', 'test', 'status', 'requestId', 'errorCode', 'verification', 'batch'] as const;

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

export function openAuditLog(dataDir: string, lockOptions: DataLockOptions = {}): FileAuditLog {
  const path = join(dataDir, AUDIT_FILE_NAME);
  const pending: AuditEntry[] = [];
  let setAside: AuditReading['setAside'];
  ignoreFileSizeSignal();

  const locked = <T>(task: Parameters<typeof withDataLock<T>>[2]): Promise<T> => withDataLock(dataDir, AUDIT_LOCK, task, lockOptions);

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
            tail = await writeChained(handle, tail, [pending[0] as AuditEntry], path);
            pending.shift();
          }
          if (!build) return;
          const built = build(tail.lastLine);
          hold.assertHeld();
          await writeChained(handle, tail, Array.isArray(built) ? built : [built as AuditEntry], path);
        } finally {
          await handle.close().catch(() => undefined);
        }
      });
    } catch (error) {
      pending.push(...keep);
      throw isPrivacyDeskError(error) ? error : notWritten(path, error);
    }
  };

  const snapshot = async (moveTorn: boolean): Promise<{ text: string; setAside?: AuditReading['setAside'] }> => {
    try {
      return await locked(async () => {
        let handle: FileHandle;
        try {
          handle = await open(path, 'r+');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '' };
          throw error;
        }
        try {
          const tail = await readTail(handle);
          if (moveTorn && !tail.endsWithNewline) setAside = await moveTornTailAside(handle, path, tail);
          return { text: await readFile(path, 'utf8') };
        } finally {
          await handle.close().catch(() => undefined);
        }
      });
    } catch {
      // No lock (a read-only folder, a busy lock) or no write access: read as it is, move nothing.
      return { text: await readWhole(path) };
    }
  };

  return {
    path,
    // An 'attempted' entry that cannot be written stops the act; any other records an act that happened.
    append: (entry) => appendBuilt(() => entry, entry.outcome === 'attempted' ? [] : [entry]),
    appendMany: (entries) => (entries.length === 0 ? Promise.resolve() : appendBuilt(() => entries, entries.filter((entry) => entry.outcome !== 'attempted'))),
    appendAfterLast: (build) => appendBuilt(build),
    async read() {
      const { text } = await snapshot(true);
      return readingOf(text, setAside);
    },
    async verify(anchor) {
      const { text } = await snapshot(false);
      return readingOf(text, undefined, anchor).verdict;
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
    async list(limit = 200) {
      const { entries } = parseAuditText(await readWhole(path));
      return entries
        .map(({ line: _line, ...entry }) => entry as AuditEntry)
        .reverse()
        .slice(0, Math.max(0, limit));
    },
  };
}

async function readWhole(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

interface Tail {
  /** The last complete line, without its newline; null when there is none. */
  lastLine: string | null;
  endsWithNewline: boolean;
  /** Bytes in the file. */
  size: number;
  /** Offset just after the last newline (0 when there is none): where a torn part starts. */
  cleanEnd: number;
}

/** The chain fields for an entry following `lastLine`. */
async function linkFor(lastLine: string | null, path: string): Promise<ChainLink> {
  if (lastLine === null) return startChain();
  // Bounded like every read of the trail: a hostile last line is corrupt, and linked to by its raw bytes below.
  const parsed = parseBoundedJson(lastLine);
  const previous = parsed.ok && entryProblem(parsed.value) === null ? parsed.value : undefined;
  if (isChained(previous)) return linkAfter(previous);
  const text = await readWhole(path);
  const { chainLines } = parseAuditText(text);
  const lastChained = [...chainLines].reverse().find((l) => l.kind === 'entry' && isChained(l.stored));
  // No chained entry yet: the chain starts here and records what the file holds before it (lines written
  // before the chain existed), so verify can tell that genuine prefix from lines put there later.
  if (!lastChained || lastChained.kind !== 'entry' || !isChained(lastChained.stored)) return startChain(text);
  // A corrupt or unchained last line after the chain started: keep numbering after the last chained entry and
  // link to the line's raw bytes, so verify locates that line instead of seeing a new chain.
  return { format: 2, seq: lastChained.stored.seq + 1, prevHash: sha256Hex(lastLine) };
}

/** The entry as its stored line, chained after `lastLine`; only the audit fields are kept. */
async function chainedLine(lastLine: string | null, entry: AuditEntry, path: string): Promise<string> {
  const { chainId, prevHash, ...numbering } = await linkFor(lastLine, path);
  const clean: Record<string, unknown> = { ...numbering };
  for (const field of AUDIT_FIELDS) if (entry[field] !== undefined) clean[field] = entry[field];
  if (chainId !== undefined) clean.chainId = chainId;
  clean.prevHash = prevHash;
  return JSON.stringify(clean);
}

/** Writes the entries as whole lines in one write (or nothing: a failed write is cut back off) and fsyncs once. */
async function writeChained(handle: FileHandle, tail: Tail, entries: readonly AuditEntry[], path: string): Promise<Tail> {
  let line = tail.lastLine ?? null;
  const lines: string[] = [];
  for (const entry of entries) {
    line = await chainedLine(line, entry, path);
    lines.push(`${line}\n`);
  }
  const bytes = Buffer.from(lines.join(''), 'utf8');
  try {
    // One write call; a short count (the disk filled up, the size limit) is not success. Trying the
    // rest once more gets the error that says why (ENOSPC, EFBIG…), or finishes the line.
    let written = (await handle.write(bytes, 0, bytes.length, null)).bytesWritten;
    if (written < bytes.length) written += (await handle.write(bytes, written, bytes.length - written, null)).bytesWritten;
    if (written < bytes.length) throw Object.assign(new Error(`only ${written} of ${bytes.length} bytes could be written`), { code: 'SHORT_WRITE' });
    await handle.sync();
  } catch (error) {
    // No fragment may stay: the next line must not land on a partial one.
    await handle.truncate(tail.size).catch(() => undefined);
    await handle.sync().catch(() => undefined);
    throw error;
  }
  return { lastLine: line, endsWithNewline: true, size: tail.size + bytes.length, cleanEnd: tail.size + bytes.length };
}

/** Copies a torn last line to audit.jsonl.torn-<time> (a file of its own, fsynced), then cuts it off the trail. */
async function moveTornTailAside(handle: FileHandle, path: string, tail: Tail): Promise<{ path: string; bytes: number }> {
  const bytes = tail.size - tail.cleanEnd;
  const fragment = Buffer.alloc(bytes);
  await handle.read(fragment, 0, bytes, tail.cleanEnd);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let asidePath = `${path}.torn-${stamp}`;
  let aside: FileHandle | null = null;
  for (let n = 1; !aside; n++) {
    try {
      aside = await open(asidePath, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw error;
      asidePath = `${path}.torn-${stamp}-${n}`;
    }
  }
  try {
    const { bytesWritten } = await aside.write(fragment, 0, bytes, 0);
    if (bytesWritten !== bytes) throw Object.assign(new Error(`only ${bytesWritten} of ${bytes} bytes of the torn line could be set aside`), { code: 'SHORT_WRITE' });
    await aside.sync();
  } finally {
    await aside.close();
  }
  await handle.truncate(tail.cleanEnd);
  await handle.sync();
  return { path: asidePath, bytes };
}

const TAIL_CHUNK_BYTES = 4096;

/** The last complete line (entries are small: usually one read from the end) and whether the file ends cleanly. */
async function readTail(handle: FileHandle): Promise<Tail> {
  const { size } = await handle.stat();
  if (size === 0) return { lastLine: null, endsWithNewline: true, size, cleanEnd: 0 };
  let start = size;
  let tail = Buffer.alloc(0);
  const newlines = () => tail.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);
  // Two newlines bracket the last complete line (the one before it, and its own or the torn part's).
  while (start > 0 && newlines() < 2) {
    const length = Math.min(TAIL_CHUNK_BYTES, start);
    start -= length;
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, start);
    tail = Buffer.concat([chunk, tail]);
  }
  const endsWithNewline = tail[tail.length - 1] === 0x0a;
  const lastNewline = tail.lastIndexOf(0x0a);
  const cleanEnd = lastNewline < 0 ? 0 : start + lastNewline + 1;
  const lines = tail.toString('utf8').split('\n');
  // The last element is '' after a clean end, or the torn part: either way the complete line is the one before.
  const lastLine = lines.length >= 2 ? (lines[lines.length - 2] ?? null) : null;
  return { lastLine, endsWithNewline, size, cleanEnd };
}

function notWritten(path: string, error: unknown): AuditWriteError {
  const { why, fix, systemCode } = diskProblem(error, 'audit.why.fileTooBig');
  return new AuditWriteError(path, why, fix, systemCode, error);
}

import { open, readFile, type FileHandle } from 'node:fs/promises';
import type { AuditEntry } from '../shared/audit';
import { entryHash, isChained, linkAfter, sha256Hex, startChain, type ChainLink } from './audit-chain';
import type { ChainHead } from './audit-anchor';
import { summarizeTrail, type TrailSummary } from './audit-anchor-check';
import { entryProblem, parseAuditText } from './audit-reader';
import { parseBoundedJson } from './bounded-json';
import { appendWholeDurably } from './durable-append';

/**
 * The audit file itself, for core/audit-log.ts (which holds the lock around all of it): its last line, whole
 * chained lines written in one write and one fsync, a torn last line moved aside.
 */

// Only these fields reach the file, whatever the caller passes: nothing secret can ride along.
export const AUDIT_FIELDS = ['at', 'actId', 'action', 'outcome', 'uid', 'reference', 'profileId', 'profileName', 'baseUrl', 'operator', 'appVersion', 'via', 'jobId', 'pastedUid', 'test', 'status', 'requestId', 'errorCode', 'verification', 'batch', 'acknowledgement', 'register', 'desktop', 'dbRole', 'imported', 'importedFrom'] as const;

export async function readWhole(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

export interface Tail {
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
  return storedEntry(await linkFor(lastLine, path), entry).line;
}

/**
 * The entry as stored with its chain fields (the object verify hashes) and as its line: every store builds its lines
 * here (the team database too: core/team/pg-audit-log.ts), so the same entry is the same line wherever it is kept.
 */
export function storedEntry(link: ChainLink, entry: AuditEntry): { stored: Record<string, unknown>; line: string } {
  const { chainId, prevHash, format, seq, before } = link;
  // Built from a literal, not a spread of the rest: that object took 8 KB an entry to fill (a 100,000-uid batch writes 200,000).
  const clean: Record<string, unknown> = { format, seq };
  if (before !== undefined) clean.before = before;
  for (const field of AUDIT_FIELDS) if (entry[field] !== undefined) clean[field] = entry[field];
  if (chainId !== undefined) clean.chainId = chainId;
  clean.prevHash = prevHash;
  return { stored: clean, line: JSON.stringify(clean) };
}

/** The file as a write leaves it: another writer's write, or anyone's edit, changes one of these. */
export interface FileState {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * Called before a write lands, with the trail's head now, the head the write makes (the anchor keeps both), the
 * file's state and the bytes about to be written; returns what to do when the write fails, and when it has landed
 * (with the file's state then).
 */
export type AnnounceWrite = (
  prev: ChainHead,
  next: { seq: number; headHash: string; chainId?: string },
  file: FileState,
  bytes: Buffer,
) => Promise<{ failed(): Promise<void>; landed(file: FileState): Promise<void> } | undefined>;

const stateOf = ({ size, mtimeMs, ino }: FileState): FileState => ({ size, mtimeMs, ino });

/** Writes the entries as whole lines in one write (or nothing: a failed write is cut back off) and fsyncs once. */
export async function writeChained(handle: FileHandle, tail: Tail, entries: readonly AuditEntry[], path: string, announce?: AnnounceWrite): Promise<Tail> {
  let line = tail.lastLine ?? null;
  const lines: string[] = [];
  for (const entry of entries) {
    line = await chainedLine(line, entry, path);
    lines.push(`${line}\n`);
  }
  const bytes = Buffer.from(lines.join(''), 'utf8');
  let announced: Awaited<ReturnType<AnnounceWrite>>;
  if (announce && line !== null) {
    const written = JSON.parse(line) as { seq: number; chainId?: string };
    const first = JSON.parse(lines[0] as string) as { chainId?: string };
    const next = { seq: written.seq, headHash: entryHash(written), ...(typeof first.chainId === 'string' ? { chainId: first.chainId } : {}) };
    announced = await announce(await headBefore(tail.lastLine, path), next, stateOf(await handle.stat()), bytes);
  }
  try {
    // Whole or not at all: no fragment may stay, the next line must not land on a partial one.
    await appendWholeDurably(handle, tail.size, bytes);
  } catch (error) {
    await announced?.failed().catch(() => undefined);
    throw error;
  }
  if (announced) await announced.landed(stateOf(await handle.stat()));
  return { lastLine: line, endsWithNewline: true, size: tail.size + bytes.length, cleanEnd: tail.size + bytes.length };
}

/** Copies a torn last line to audit.jsonl.torn-<time> (a file of its own, fsynced), then cuts it off the trail. */
export async function moveTornTailAside(handle: FileHandle, path: string, tail: Tail): Promise<{ path: string; bytes: number }> {
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
export async function readTail(handle: FileHandle): Promise<Tail> {
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


/** The chain's head before a write: the last line when it is a chained entry (the usual case), else the last chained entry of the file. */
async function headBefore(lastLine: string | null, path: string): Promise<ChainHead> {
  if (lastLine === null) return { seq: 0, headHash: null };
  const parsed = parseBoundedJson(lastLine);
  if (parsed.ok && entryProblem(parsed.value) === null && isChained(parsed.value)) return { seq: parsed.value.seq, headHash: entryHash(parsed.value) };
  return (await summaryOfFile(path)).head;
}

/** The whole file, summarised for the anchor (read only when the anchor needs more than the last line). */
export async function summaryOfFile(path: string): Promise<TrailSummary> {
  const text = await readWhole(path);
  return summarizeTrail(parseAuditText(text).chainLines, text);
}

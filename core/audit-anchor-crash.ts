import { createHash } from 'node:crypto';
import { open, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CrashEvidence, WriteFingerprint } from './audit-anchor';

/**
 * Telling a crash from a removal: what a crash leaves. A write cut short by a power cut leaves a torn last line,
 * which the next open of the trail moves to audit.jsonl.torn-<time> (core/audit-file.ts). Such a fragment proves the
 * crash when, after the write's entries that reached the trail whole, its bytes start the very write the anchor
 * announced: they match the write's fingerprint, taken before it landed, over at least CONCLUSIVE_BYTES (which
 * reach past the entry's sequence number into its time to the millisecond). Anything less is no proof either way.
 */

const FIRST_MARK_BYTES = 32;
const MARK_CHARS = 16;
/** The shortest fragment that proves a crash: 64 bytes of a line reach past its number into its time. */
export const CONCLUSIVE_BYTES = 64;

const markOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, MARK_CHARS);

/** The fingerprint the anchor keeps of a write before it lands (core/audit-anchor.ts WriteFingerprint). */
export function writeFingerprint(bytes: Uint8Array): WriteFingerprint {
  const marks: string[] = [];
  for (let length = FIRST_MARK_BYTES; length < bytes.length; length *= 2) marks.push(markOf(bytes.subarray(0, length)));
  return { bytes: bytes.length, marks };
}

/** Whether `start` (shorter than the write) agrees with every mark its length reaches. */
function agrees(write: WriteFingerprint, start: Uint8Array): boolean {
  if (start.length === 0 || start.length >= write.bytes) return false;
  for (let i = 0, length = FIRST_MARK_BYTES; i < write.marks.length && length <= start.length; i++, length *= 2) {
    if (markOf(start.subarray(0, length)) !== write.marks[i]) return false;
  }
  return true;
}

/** How every chained line begins: what a fragment too short for a mark must agree with. */
const lineStart = (seq: number): Buffer => Buffer.from(`{"format":2,"seq":${seq},`, 'utf8');

/** A crash leaves its fragment with zeros after it on some file systems: they are not part of the write. */
function withoutTrailingZeros(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end);
}

export interface WriteOnDisk {
  auditPath: string;
  write: WriteFingerprint | undefined;
  /** The write's whole lines still in the trail (after the anchored head), and how many entries they are. */
  landed: Buffer;
  landedEntries: number;
  /** The sequence number of the write's first entry. */
  firstSeq: number;
}

/** What the data folder shows of a write the anchor knew under way: the crash that cut it short, a fragment too short to tell, or nothing. */
export async function crashEvidence(onDisk: WriteOnDisk): Promise<{ crash?: CrashEvidence; short?: { fragment: string; bytes: number } }> {
  const { auditPath, write, landed, landedEntries, firstSeq } = onDisk;
  // A record kept before fingerprints existed cannot recognise anything.
  if (!write) return {};
  let short: { fragment: string; bytes: number } | undefined;
  for (const path of await tornFiles(auditPath)) {
    const fragment = withoutTrailingZeros(await readStart(path, write.bytes));
    const start = Buffer.concat([landed, fragment]);
    if (fragment.length === 0 || !agrees(write, start)) continue;
    if (start.length >= CONCLUSIVE_BYTES) return { crash: { fragment: path, bytes: fragment.length, landed: landedEntries } };
    const expected = lineStart(firstSeq);
    const consistent = start.length <= expected.length ? expected.subarray(0, start.length).equals(start) : start.subarray(0, expected.length).equals(expected);
    if (consistent) short ??= { fragment: path, bytes: fragment.length };
  }
  return short ? { short } : {};
}

/** The torn parts set aside beside the trail, newest first (their names carry the time they were set aside). */
async function tornFiles(auditPath: string): Promise<string[]> {
  const prefix = `${basename(auditPath)}.torn-`;
  let names: string[];
  try {
    names = await readdir(dirname(auditPath));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix))
    .sort()
    .reverse()
    .map((name) => join(dirname(auditPath), name));
}

/** At most `limit` bytes from the start of a file (a fragment is never longer than its write). */
async function readStart(path: string, limit: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buffer = Buffer.alloc(limit);
    const { bytesRead } = await handle.read(buffer, 0, limit, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { PrivacyDeskError, isPrivacyDeskError } from '../shared/errors';
import type { AuditEntry } from '../shared/audit';
import { AUDIT_LOCK, withDataLock, type DataLockOptions } from './data-lock';

export const AUDIT_FILE_NAME = 'audit.jsonl';

export interface AuditLog {
  readonly path: string;
  /** Appends one entry and fsyncs; throws when it could not be recorded (callers must then not act). */
  append(entry: AuditEntry): Promise<void>;
  /** Newest first. */
  list(limit?: number): Promise<AuditEntry[]>;
}

/** The file-backed log also lets an entry depend on the line before it (a hash chain). */
export interface FileAuditLog extends AuditLog {
  /**
   * Like append, but builds the entry from the file's last complete line (exactly as stored, without
   * its newline; null when there is none), read under the same cross-process lock as the write.
   */
  appendAfterLast(build: (lastLine: string | null) => AuditEntry): Promise<void>;
}

// Only these fields reach the file, whatever the caller passes: nothing secret can ride along.
const AUDIT_FIELDS = ['at', 'actId', 'action', 'outcome', 'uid', 'reference', 'profileId', 'profileName', 'baseUrl', 'operator', 'appVersion', 'via', 'jobId', 'test', 'status', 'requestId', 'errorCode', 'verification'] as const;

export function openAuditLog(dataDir: string, lockOptions: DataLockOptions = {}): FileAuditLog {
  const path = join(dataDir, AUDIT_FILE_NAME);

  const toLine = (entry: AuditEntry): string => {
    const clean: Record<string, unknown> = {};
    for (const field of AUDIT_FIELDS) if (entry[field] !== undefined) clean[field] = entry[field];
    return `${JSON.stringify(clean)}\n`;
  };

  // Every writer, in this process or another (app, CLI), appends under the audit lock: lines never
  // interleave, and the last line read here is still the last one when ours lands.
  const appendAfterLast = (build: (lastLine: string | null) => AuditEntry): Promise<void> =>
    withDataLock(dataDir, AUDIT_LOCK, async (hold) => {
      const handle = await open(path, 'a+', 0o600);
      try {
        const tail = await readTail(handle);
        const line = toLine(build(tail.lastLine));
        hold.assertHeld();
        // A line torn by a crash gets its own line, so it cannot swallow this entry.
        await handle.appendFile(tail.endsWithNewline ? line : `\n${line}`, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
    }, lockOptions).catch((error: unknown) => {
      if (isPrivacyDeskError(error)) throw error; // the lock already explains itself
      throw new PrivacyDeskError(
        {
          code: 'INTERNAL',
          message: `The audit trail ${path} could not be written (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}). Check that the disk is not full and the folder is writable, then try again.`,
        },
        { cause: error },
      );
    });

  return {
    path,
    append: (entry) => appendAfterLast(() => entry),
    appendAfterLast,
    async list(limit = 200) {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const entries: AuditEntry[] = [];
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        try {
          entries.push(JSON.parse(line) as AuditEntry);
        } catch {
          // A torn last line (crash mid-write) must not hide every other entry.
        }
      }
      return entries.reverse().slice(0, Math.max(0, limit));
    },
  };
}

const TAIL_CHUNK_BYTES = 4096;

/** The last complete line (entries are small: usually one read from the end) and whether the file ends cleanly. */
async function readTail(handle: FileHandle): Promise<{ lastLine: string | null; endsWithNewline: boolean }> {
  const { size } = await handle.stat();
  if (size === 0) return { lastLine: null, endsWithNewline: true };
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
  const lines = tail.toString('utf8').split('\n');
  const endsWithNewline = tail[tail.length - 1] === 0x0a;
  // The last element is '' after a clean end, or the torn part: either way the complete line is the one before.
  const lastLine = lines.length >= 2 ? (lines[lines.length - 2] ?? null) : null;
  return { lastLine, endsWithNewline };
}

import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { msg } from '../../shared/messages';
import { moveTornTailAside, readTail, readWhole } from '../audit-file';
import { withDataLock, type DataLockName, type DataLockOptions } from '../data-lock';
import { appendWholeDurably } from '../durable-append';
import type { RegisterEventLog, RegisterLine } from './register-event-log';

/**
 * requests.jsonl: the request register as an append-only log of events, one JSON line each, written whole and
 * fsynced under the register's lock (the app and CLI commands share the data folder), as the audit trail is. A line
 * torn by a crash is moved aside (requests.jsonl.torn-<time>) by the next write, never glued onto.
 */
export const REGISTER_FILE_NAME = 'requests.jsonl';
export const REQUESTS_LOCK: DataLockName = { name: 'requests', what: msg('lock.what.requests') };

export type { RegisterLine } from './register-event-log';

/** The complete lines of the register's text (a last line without its newline is torn: left out, and counted). */
export function registerLines(text: string): { lines: RegisterLine[]; tornBytes: number } {
  const parts = text.split('\n');
  const torn = parts.pop() ?? '';
  const lines: RegisterLine[] = [];
  parts.forEach((part, index) => {
    if (part.trim()) lines.push({ line: index + 1, text: part });
  });
  return { lines, tornBytes: Buffer.byteLength(torn, 'utf8') };
}

/** The register's events as a file: read without the lock (a line being written is torn until its newline, and left out). */
export interface RegisterFile extends RegisterEventLog {
  readonly path: string;
}

export function openRegisterFile(dataDir: string, lockOptions: DataLockOptions = {}): RegisterFile {
  const path = join(dataDir, REGISTER_FILE_NAME);
  const locked = <T>(task: () => Promise<T>): Promise<T> => withDataLock(dataDir, REQUESTS_LOCK, task, lockOptions);
  return {
    path,
    where: path,
    damaged: (line, problem) => msg('requests.fileDamaged', { line, path, problem }),
    read: async () => registerLines(await readWhole(path)).lines,
    locked,
    append: (decide, after) =>
      withDataLock(
        dataDir,
        REQUESTS_LOCK,
        async (hold) => {
          const handle = await open(path, 'a+', 0o600);
          try {
            let tail = await readTail(handle);
            if (!tail.endsWithNewline) {
              await moveTornTailAside(handle, path, tail);
              tail = { ...tail, size: tail.cleanEnd, endsWithNewline: true };
            }
            const text = await readWhole(path);
            const { lines } = registerLines(text);
            const decided = await decide(lines);
            if (!decided) return null;
            hold.assertHeld();
            await writeLine(handle, tail.size, decided.text);
            // Blank lines count too: the new line is one past the file's last newline.
            await after?.({ line: text.split('\n').length, text: decided.text }, decided.result);
            return decided.result;
          } finally {
            await handle.close().catch(() => undefined);
          }
        },
        lockOptions,
      ),
  };
}

/** One write and one fsync; a failed or short write is cut back off, so the next line never lands on a fragment. */
function writeLine(handle: FileHandle, size: number, text: string): Promise<void> {
  return appendWholeDurably(handle, size, Buffer.from(`${text}\n`, 'utf8'));
}

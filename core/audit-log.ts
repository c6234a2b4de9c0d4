import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrivacyDeskError } from '../shared/errors';
import type { AuditEntry } from '../shared/audit';
import { ensureDataDir } from './data-dir';

export const AUDIT_FILE_NAME = 'audit.jsonl';

export interface AuditLog {
  readonly path: string;
  /** Appends one entry and fsyncs; throws when it could not be recorded (callers must then not act). */
  append(entry: AuditEntry): Promise<void>;
  /** Newest first. */
  list(limit?: number): Promise<AuditEntry[]>;
}

// Only these fields reach the file, whatever the caller passes: nothing secret can ride along.
const AUDIT_FIELDS = ['at', 'action', 'uid', 'profileId', 'profileName', 'baseUrl', 'reference', 'outcome', 'status', 'requestId', 'errorCode', 'via', 'actId'] as const;

export function openAuditLog(dataDir: string): AuditLog {
  const path = join(dataDir, AUDIT_FILE_NAME);
  // All writing goes through this one queue, so a later hash chain can read the previous line safely.
  let queue: Promise<unknown> = Promise.resolve();

  const writeLine = async (entry: AuditEntry): Promise<void> => {
    const clean: Record<string, unknown> = {};
    for (const field of AUDIT_FIELDS) if (entry[field] !== undefined) clean[field] = entry[field];
    ensureDataDir(dataDir);
    const handle = await open(path, 'a', 0o600);
    try {
      await handle.write(`${JSON.stringify(clean)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  };

  return {
    path,
    append(entry) {
      const run = queue.then(() => writeLine(entry));
      queue = run.catch(() => undefined);
      return run.catch((error: unknown) => {
        throw new PrivacyDeskError(
          {
            code: 'INTERNAL',
            message: `The audit trail ${path} could not be written (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}). Check that the disk is not full and the folder is writable, then try again.`,
          },
          { cause: error },
        );
      });
    },
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

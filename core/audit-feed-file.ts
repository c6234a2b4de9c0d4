import { statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { AuditFeedNews, AuditFeedSource } from './audit-store';

const MAX_LINE_BYTES = 1 << 20;

/**
 * audit.jsonl as a change feed: every process on this computer appends to the same file, so the bytes after the
 * last read are what was appended since. It starts at the file's end when made and reads only the new bytes (by
 * offset), a line once it is whole; a file replaced or cut loses track and is read again from its start.
 */
export function fileAuditFeed(path: string, chunkBytes = 1 << 20): AuditFeedSource {
  let { offset, inode } = startingPoint(path);
  return {
    async next(): Promise<AuditFeedNews> {
      let info;
      try {
        info = await stat(path);
      } catch {
        // No trail yet (or it was removed): a trail that comes back is read from its start.
        const lostTrack = offset > 0;
        offset = 0;
        inode = undefined;
        return { lines: [], lostTrack };
      }
      let lostTrack = false;
      if ((inode !== undefined && info.ino !== inode) || info.size < offset) {
        // Replaced or cut: what was read before may not be there any more. Read the new file from its start.
        lostTrack = true;
        offset = 0;
      }
      inode = info.ino;
      if (info.size === offset) return { lines: [], lostTrack };
      const lines: string[] = [];
      const handle = await open(path, 'r');
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
          if (lastNewline !== -1) lines.push(...text.subarray(0, lastNewline).toString('utf8').split('\n'));
          // No entry is this long: skip it (its end, read later, is not JSON and is ignored) rather than hold it.
          if (carry.length > MAX_LINE_BYTES) carry = Buffer.alloc(0);
          // A line still being written stays for the next poll: the offset stops after the last whole line.
          offset = position - carry.length;
        }
      } finally {
        await handle.close();
      }
      return { lines, lostTrack };
    },
  };
}

function startingPoint(path: string): { offset: number; inode: number | undefined } {
  try {
    const info = statSync(path);
    return { offset: info.size, inode: info.ino };
  } catch {
    return { offset: 0, inode: undefined };
  }
}

import type { FileHandle } from 'node:fs/promises';

/**
 * Appends `bytes` to a file whose size was `size`, in one write and one fsync, or not at all: a short count (the
 * disk filled up, a size limit) is not success — trying the rest once more gets the error that says why (ENOSPC,
 * EFBIG…), or finishes — and on any failure the file is cut back to `size`, so the next line never lands on a
 * fragment. The audit trail and the request register write this way.
 */
export async function appendWholeDurably(handle: FileHandle, size: number, bytes: Buffer): Promise<void> {
  try {
    let written = (await handle.write(bytes, 0, bytes.length, null)).bytesWritten;
    if (written < bytes.length) written += (await handle.write(bytes, written, bytes.length - written, null)).bytesWritten;
    if (written < bytes.length) throw Object.assign(new Error(`only ${written} of ${bytes.length} bytes could be written`), { code: 'SHORT_WRITE' });
    await handle.sync();
  } catch (error) {
    await handle.truncate(size).catch(() => undefined);
    await handle.sync().catch(() => undefined);
    throw error;
  }
}

/**
 * At most `size` requests on the wire at once, first come first served. A batch's senders outnumber
 * its wire slots (run-batch.ts): while `size` requests are out, the next items are already being
 * recorded durably, so a freed slot is taken at once by an item whose records are on disk.
 */
export function createWireSlots(size: number) {
  let free = Math.max(1, size);
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<void> {
      if (free > 0) {
        free -= 1;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give(): void {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
}

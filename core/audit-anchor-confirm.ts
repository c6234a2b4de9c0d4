import type { AuditAnchorRecord } from './audit-anchor';
import type { FileState } from './audit-file';

/**
 * Telling the anchor that a write has landed, a moment after it did: a write that follows says it anyway (its
 * announcement starts from the landed head), so a burst of writes — a batch's groups, an act's steps — costs one
 * keychain write each, and only the last write of a burst is confirmed on its own. The confirmation runs under the
 * audit lock and only while the file is exactly as that write left it (core/audit-log.ts): another writer's
 * announcement since has said the same. A command ends, and the app closes, only once it is done
 * (settleAnchorConfirmations), so a removed last write is called a removal, never a write under way.
 */
export interface LandedConfirmations {
  /** After a write landed: confirm `record` unless another write is announced first. */
  schedule(record: AuditAnchorRecord, file: FileState): void;
  /** A write is being announced: it says the last one landed, so the confirmation is not needed. */
  cancel(): void;
  /** Confirms at once what is pending, and waits for it. */
  settle(): Promise<void>;
}

/** How long a landed write waits for a successor before the anchor is told on its own. */
export const CONFIRM_AFTER_MS = 50;

const unsettled = new Set<() => Promise<void>>();

/** Every audit log's pending confirmation, done now (the CLI before it returns, the app before it closes). */
export async function settleAnchorConfirmations(): Promise<void> {
  await Promise.all([...unsettled].map((settle) => settle()));
}

export function landedConfirmations(confirm: (record: AuditAnchorRecord, file: FileState) => Promise<void>): LandedConfirmations {
  let pending: { record: AuditAnchorRecord; file: FileState; timer: ReturnType<typeof setTimeout> } | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = (): Promise<void> => {
    const due = pending;
    if (due) {
      pending = undefined;
      clearTimeout(due.timer);
      unsettled.delete(settle);
      running = running.then(() => confirm(due.record, due.file)).catch(() => undefined);
    }
    return running;
  };
  const settle = (): Promise<void> => run();
  return {
    schedule(record, file) {
      if (pending) clearTimeout(pending.timer);
      pending = { record, file, timer: setTimeout(() => void run(), CONFIRM_AFTER_MS) };
      unsettled.add(settle);
    },
    cancel() {
      if (!pending) return;
      clearTimeout(pending.timer);
      pending = undefined;
      unsettled.delete(settle);
    },
    settle,
  };
}

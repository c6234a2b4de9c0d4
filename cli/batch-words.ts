import type { BatchCounts } from '../shared/batch';
import type { ErasureAction } from '../shared/users';

/** What each operation does to every user of a batch: the words of the single acts (`users anonymize|delete --help`), for many. */
export const BATCH_OPERATION_WORDS: Record<ErasureAction, { name: string; what: string; doing: string }> = {
  anonymize: { name: 'ANONYMISE', what: 'erases each user’s name, e-mail, uid and image; keeps their contributions', doing: 'anonymising' },
  delete: { name: 'DELETE', what: 'deletes each user and all their contributions; keeps nothing of them', doing: 'deleting' },
};

/** Seconds as an operator reads them: "42 s", "3 min 05 s", "2 h 07 min". */
export function formatSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Done, counting those done before an interruption (a 404 on a retry: the first attempt had done it). */
export function doneCount(counts: BatchCounts): number {
  return counts.done + counts.doneBeforeInterruption;
}

/** Every item done or not found: the one ending that exits 0. */
export function allSettledWell(counts: BatchCounts): boolean {
  return counts.failed === 0 && counts.unfinished === 0;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

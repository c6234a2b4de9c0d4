import type { ErasureAction } from '../shared/users';

/** The core's English words for each erasure action, for messages (the renderer has its own, translated). */
export const ACTION_WORDS: Record<ErasureAction, { verb: string; doing: string; done: string; Done: string }> = {
  anonymize: { verb: 'anonymise', doing: 'anonymising', done: 'anonymised', Done: 'Anonymised' },
  delete: { verb: 'delete', doing: 'deleting', done: 'deleted', Done: 'Deleted' },
};

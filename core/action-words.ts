import { invalidInput, type PrivacyDeskError } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import { ERASURE_ACTIONS, type ErasureAction } from '../shared/users';

/** The core's English words for each erasure action, for messages (the renderer has its own, translated). */
export const ACTION_WORDS: Record<ErasureAction, { verb: string; doing: string; done: string; Done: string }> = {
  anonymize: { verb: 'anonymise', doing: 'anonymising', done: 'anonymised', Done: 'Anonymised' },
  delete: { verb: 'delete', doing: 'deleting', done: 'deleted', Done: 'Deleted' },
};

/** True for 'anonymize' and 'delete' only (not 'anonymise', 'Delete', 'constructor'…). */
export function isErasureAction(value: unknown): value is ErasureAction {
  return (ERASURE_ACTIONS as readonly unknown[]).includes(value);
}

/**
 * The refusal for anything that is not an erasure action, before anything is sent. A switch on an action
 * ends with `default: throw unknownAction(action)`: with `action` typed never there, tsc proves every
 * action has its case, and at run time a value that slipped past the types is refused, not sent as the other act.
 */
export function unknownAction(action: unknown): PrivacyDeskError {
  return invalidInput(msg('gate.unknownAction', { action: typeof action === 'string' ? action.slice(0, 40) : String(action) }));
}

/** The same words as message phrases (shared/messages/), which the window words in its own language. */
export function actionPhrases(action: ErasureAction): { verb: MessageText; done: MessageText; purpose: (uid: string) => MessageText } {
  switch (action) {
    case 'anonymize':
      return { verb: msg('action.verb.anonymize'), done: msg('action.done.anonymize'), purpose: (uid) => msg('purpose.anonymizeUser', { uid }) };
    case 'delete':
      return { verb: msg('action.verb.delete'), done: msg('action.done.delete'), purpose: (uid) => msg('purpose.deleteUser', { uid }) };
    default:
      throw unknownAction(action satisfies never);
  }
}

/** The words for an action; anything else is refused (an object lookup would also find 'constructor'). */
export function actionWords(action: ErasureAction): (typeof ACTION_WORDS)[ErasureAction] {
  if (!isErasureAction(action)) throw unknownAction(action);
  return ACTION_WORDS[action];
}

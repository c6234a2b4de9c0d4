import { batchConfirmationPhrase, matchesBatchConfirmation } from '../shared/batch';
import { invalidInput, PrivacyDeskError } from '../shared/errors';
import type { ErasureAction } from '../shared/users';
import { promptLine } from './batch-prompt';
import { BATCH_OPERATION_WORDS } from './batch-words';
import type { CliIo } from './io';
import { visibleText } from './visible-text';

export interface ConfirmationRequest {
  action: ErasureAction;
  count: number;
  /** --yes as given. */
  yes?: string;
  /** Standard input held the list (FILE "-"), so it cannot answer a question. */
  stdinIsInput: boolean;
  /** How to run the command again with --yes, e.g. `privacy-desk batch resume 2026…`. */
  commandHint: string;
}

/**
 * The typed confirmation (`DELETE 250`): from --yes, else asked on the terminal; without a
 * terminal it refuses. Returns what was typed; throws (exit 2, nothing sent) otherwise.
 */
export async function obtainConfirmation(request: ConfirmationRequest, io: Pick<CliIo, 'stdin' | 'stderr'>): Promise<string> {
  const phrase = batchConfirmationPhrase(request.action, request.count);
  const doing = `${BATCH_OPERATION_WORDS[request.action].doing} ${request.count === 1 ? 'this user' : `these ${request.count} users`}`;
  if (request.yes !== undefined) {
    if (matchesBatchConfirmation(request.yes, request.action, request.count)) return request.yes;
    throw mismatch(`--yes "${visibleText(request.yes)}" does not confirm this batch: to confirm ${doing}, give --yes "${phrase}". Nothing was sent.`);
  }
  if (io.stdin.isTTY !== true || request.stdinIsInput) {
    const why = request.stdinIsInput ? 'Standard input held the list, so it cannot answer the confirmation' : 'No terminal to ask for the confirmation on';
    throw invalidInput(`${why}: run ${request.commandHint} again with --yes "${phrase}" to confirm ${doing}. Nothing was sent.`);
  }
  const typed = await promptLine(`Type ${phrase} to confirm ${doing} (anything else stops here): `, io);
  if (matchesBatchConfirmation(typed, request.action, request.count)) return typed;
  throw mismatch(typed.trim() === '' ? 'Not confirmed. Nothing was sent.' : `"${visibleText(typed)}" is not "${phrase}". Not confirmed: nothing was sent.`);
}

function mismatch(message: string): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message });
}

import { invalidInput } from '../shared/errors';
import { checkBaseUrl, type BaseUrlProblem } from '../shared/profile';
import type { ReferenceProblem } from '../shared/reference';
import { uidProblem, type UidProblem } from '../shared/uid';

/**
 * The core's English words for the shared input rules (the renderer has its
 * own, translated, in renderer/i18n). Each says what is wrong and what to do.
 */
export function uidProblemMessage(problem: UidProblem): string {
  switch (problem.code) {
    case 'empty':
      return 'The uid is empty. Enter the uid exactly as the client application knows the user.';
    case 'too-long':
      return `The uid is ${problem.length} characters long; uids are at most ${problem.max}. Check that you pasted only the uid.`;
    case 'control-character':
      return 'The uid contains a control character (such as a line break or tab), probably from a paste. Remove it and try again.';
    case 'invalid-unicode':
      return 'The uid contains a broken character (half of a UTF-16 surrogate pair), probably from a paste that was cut short. Paste the whole uid again.';
    case 'dot-segment':
      return `The uid "${problem.uid}" cannot be sent in a request path. Check the uid; if it is really this, contact the service.`;
  }
}

export function referenceProblemMessage(problem: ReferenceProblem): string {
  return `The reference is ${problem.length} characters long; references are at most ${problem.max}. Enter only the ticket or request number.`;
}

export function baseUrlProblemMessage(problem: BaseUrlProblem): string {
  switch (problem.code) {
    case 'required':
      return `"" is not a web address. Enter the service's address, for example https://debate.example.com`;
    case 'not-a-url':
      return `"${problem.input}" is not a web address. Enter the service's address, for example https://debate.example.com`;
    case 'scheme':
      return `The address must start with https:// (it starts with ${problem.protocol}//).`;
    case 'https-required':
      return 'The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).';
    case 'credentials-in-url':
      return 'Remove the user name and password from the address; credentials go in the key fields.';
    case 'query-or-fragment':
      return 'Remove the part after ? or # from the address; enter only the service’s base address.';
  }
}

/** Throws INVALID_INPUT, before any request is sent, when the uid can never be valid. */
export function assertValidUid(uid: string): void {
  const problem = uidProblem(uid);
  if (problem) throw invalidInput(uidProblemMessage(problem));
}

/** The service's base address in its one stored form; throws INVALID_INPUT saying what to fix. */
export function normalizeBaseUrl(input: string): string {
  const checked = checkBaseUrl(input);
  if (!checked.ok) throw invalidInput(baseUrlProblemMessage(checked.problem));
  return checked.baseUrl;
}

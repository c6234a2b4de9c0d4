import { invalidInput } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg, wordInEnglish } from '../shared/messages';
import { checkBaseUrl, type BaseUrlProblem } from '../shared/profile';
import { referenceProblemText, type ReferenceProblem } from '../shared/reference';
import { uidProblem, type UidProblem } from '../shared/uid';

/**
 * The shared input rules' problems as messages (shared/messages/local.ts): the core's English comes
 * from them (…Message), the window words the same ids in its language. Each says what is wrong and what to do.
 */
export function uidProblemText(problem: UidProblem): MessageText {
  switch (problem.code) {
    case 'empty':
      return msg('uid.empty');
    case 'too-long':
      return msg('uid.tooLong', { length: problem.length, max: problem.max });
    case 'control-character':
      return msg('uid.control');
    case 'invalid-unicode':
      return msg('uid.invalidUnicode');
    case 'dot-segment':
      return msg('uid.dotSegment', { uid: problem.uid });
  }
}

export { referenceProblemText } from '../shared/reference';

export function baseUrlProblemText(problem: BaseUrlProblem): MessageText {
  switch (problem.code) {
    case 'required':
      return msg('baseUrl.required');
    case 'not-a-url':
      return msg('baseUrl.notAUrl', { input: problem.input });
    case 'scheme':
      return msg('baseUrl.scheme', { protocol: problem.protocol });
    case 'https-required':
      return msg('baseUrl.httpsRequired');
    case 'credentials-in-url':
      return msg('baseUrl.credentials');
    case 'query-or-fragment':
      return msg('baseUrl.queryOrFragment');
  }
}

export const uidProblemMessage = (problem: UidProblem): string => wordInEnglish(uidProblemText(problem));
export const referenceProblemMessage = (problem: ReferenceProblem): string => wordInEnglish(referenceProblemText(problem));
export const baseUrlProblemMessage = (problem: BaseUrlProblem): string => wordInEnglish(baseUrlProblemText(problem));

/** Throws INVALID_INPUT, before any request is sent, when the uid can never be valid. */
export function assertValidUid(uid: string): void {
  const problem = uidProblem(uid);
  if (problem) throw invalidInput(uidProblemText(problem));
}

/** The service's base address in its one stored form; throws INVALID_INPUT saying what to fix. */
export function normalizeBaseUrl(input: string): string {
  const checked = checkBaseUrl(input);
  if (!checked.ok) throw invalidInput(baseUrlProblemText(checked.problem));
  return checked.baseUrl;
}

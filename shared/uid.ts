import { invalidInput } from './errors';

export const MAX_UID_LENGTH = 1024;

// C0 controls, DEL and C1 controls: never part of a real uid, often a paste accident.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks a uid before any request is sent. uids are the client application's
 * free choice (e-mail addresses, spaces, unicode, `/`, `?`, `#`, `%` all
 * occur), so only what can never be valid is refused. Nothing is trimmed:
 * " alice" and "alice" are different users.
 */
export function uidProblem(uid: string): string | undefined {
  if (uid.length === 0) return 'The uid is empty. Enter the uid exactly as the client application knows the user.';
  if (uid.length > MAX_UID_LENGTH) {
    return `The uid is ${uid.length} characters long; uids are at most ${MAX_UID_LENGTH}. Check that you pasted only the uid.`;
  }
  if (CONTROL_CHARACTERS.test(uid)) {
    return 'The uid contains a control character (such as a line break or tab), probably from a paste. Remove it and try again.';
  }
  if (uid === '.' || uid === '..') {
    // URL parsers resolve these (even percent-encoded) as path navigation, so no request could reach this user.
    return `The uid "${uid}" cannot be sent in a request path. Check the uid; if it is really this, contact the service.`;
  }
  return undefined;
}

export function assertValidUid(uid: string): void {
  const problem = uidProblem(uid);
  if (problem) throw invalidInput(problem);
}

/** The uid as one percent-encoded path segment: `/`, `?`, `#` and `%` can never change the route. */
export function encodeUidSegment(uid: string): string {
  return encodeURIComponent(uid);
}

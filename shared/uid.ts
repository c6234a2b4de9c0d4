export const MAX_UID_LENGTH = 1024;

// C0 controls, DEL and C1 controls: never part of a real uid, often a paste accident.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// With the u flag a proper surrogate pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a uid can never be sent; each side turns the code into its own words. */
export type UidProblem =
  | { code: 'empty' }
  | { code: 'too-long'; length: number; max: number }
  | { code: 'control-character' }
  | { code: 'invalid-unicode' }
  | { code: 'dot-segment'; uid: '.' | '..' };
export type UidProblemCode = UidProblem['code'];

/**
 * Checks a uid before any request is sent. uids are the client application's
 * free choice (e-mail addresses, spaces, unicode, `/`, `?`, `#`, `%` all
 * occur), so only what can never be valid is refused. Nothing is trimmed:
 * " alice" and "alice" are different users.
 */
export function uidProblem(uid: string): UidProblem | undefined {
  if (uid.length === 0) return { code: 'empty' };
  if (uid.length > MAX_UID_LENGTH) return { code: 'too-long', length: uid.length, max: MAX_UID_LENGTH };
  if (CONTROL_CHARACTERS.test(uid)) return { code: 'control-character' };
  // Half of a surrogate pair (a paste cut mid-emoji) has no UTF-8 form, so it cannot be percent-encoded.
  if (LONE_SURROGATE.test(uid)) return { code: 'invalid-unicode' };
  // URL parsers resolve these (even percent-encoded) as path navigation, so no request could reach this user.
  if (uid === '.' || uid === '..') return { code: 'dot-segment', uid };
  return undefined;
}

/** The uid as one percent-encoded path segment: `/`, `?`, `#` and `%` can never change the route. */
export function encodeUidSegment(uid: string): string {
  return encodeURIComponent(uid);
}

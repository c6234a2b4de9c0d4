import type { UidProblemCode } from '../../../shared/uid';

/**
 * The shared rule decides whether a uid can be sent; this only picks its translated wording under `uid.problems`
 * (none for an empty uid: the single act never sends an empty field, a batch words an empty cell itself).
 */
export const UID_PROBLEM_KEYS = {
  empty: undefined,
  'too-long': 'tooLong',
  'control-character': 'control',
  'invalid-unicode': 'invalidUnicode',
  'dot-segment': 'dotSegment',
} as const satisfies Record<UidProblemCode, string | undefined>;

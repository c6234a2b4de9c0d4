/** A request's reference (a ticket or request number) as the audit trail keeps it. */
export const MAX_REFERENCE_LENGTH = 200;

/** Why a reference cannot be recorded; each side words the code in its own language. */
export type ReferenceProblem = { code: 'reference-too-long'; length: number; max: number };

/**
 * The rule the gate applies to every act's reference, and a batch preview to each line's:
 * spaces at either end are dropped (an empty reference is none), the rest is at most 200 characters.
 */
export function referenceProblem(reference: string | undefined): ReferenceProblem | undefined {
  const trimmed = reference?.trim() ?? '';
  return trimmed.length > MAX_REFERENCE_LENGTH ? { code: 'reference-too-long', length: trimmed.length, max: MAX_REFERENCE_LENGTH } : undefined;
}

import { invisibleMark, uidParts } from './invisible-characters';
import type { MessageText } from './message-text';
import { msg } from './messages';

/** A request's reference (a ticket or request number) as the audit trail keeps it. */
export const MAX_REFERENCE_LENGTH = 200;

/** Why a reference cannot be recorded; each side words the code in its own language (referenceProblemText). */
export type ReferenceProblem =
  | { code: 'reference-too-long'; length: number; max: number }
  /** The first character nobody reading it would see: its code (U+XXXX), its short label (RLO, ZWSP…) and its 1-based place. */
  | { code: 'reference-invisible'; character: string; label: string; position: number };

/**
 * Controls (a bell, a line break inside), format characters (bidirectional overrides and isolates, zero-width
 * characters, a byte order mark, a soft hyphen, tags) and line or paragraph separators: a reference is read by people
 * in the trail, its receipts and exports, and these either show as nothing or reorder what is shown around them
 * ("REQ\u202Eevil" draws as "REQlive"). Spaces of every kind stay allowed inside: they are drawn visibly.
 */
const INVISIBLE_IN_REFERENCE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * The rule the gate applies to every act's reference, a batch preview to each line's and the console to its fields:
 * spaces at either end are dropped (an empty reference is none); the rest is at most 200 characters, with no control
 * or invisible format character.
 */
export function referenceProblem(reference: string | undefined): ReferenceProblem | undefined {
  const trimmed = reference?.trim() ?? '';
  if (trimmed.length > MAX_REFERENCE_LENGTH) return { code: 'reference-too-long', length: trimmed.length, max: MAX_REFERENCE_LENGTH };
  let position = 0;
  for (const char of trimmed) {
    position += 1;
    if (!INVISIBLE_IN_REFERENCE.test(char)) continue;
    const mark = invisibleMark(char);
    const code = `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
    return { code: 'reference-invisible', character: code, label: mark?.label ?? code, position };
  }
  return undefined;
}

/** The problem as a message (shared/messages/local.ts), for the core's errors and the window's fields alike. */
export function referenceProblemText(problem: ReferenceProblem): MessageText {
  switch (problem.code) {
    case 'reference-too-long':
      return msg('reference.tooLong', { length: problem.length, max: problem.max });
    case 'reference-invisible':
      return problem.label === problem.character
        ? msg('reference.invisible', { character: problem.character, position: problem.position })
        : msg('reference.invisibleNamed', { label: problem.label, character: problem.character, position: problem.position });
  }
}

/**
 * A reference as one line of text with what cannot be seen drawn as a mark (⟨U+0007⟩, ⟨RLO⟩, ⟨NBSP⟩) and plain spaces
 * as they are: for references recorded before the rule above, or typed with other spaces. Not the reference itself:
 * filter and look up with the real one.
 */
export function visibleReferenceText(reference: string): string {
  return uidParts(reference)
    .map((part) => (part.kind === 'text' ? part.text : part.char === ' ' ? ' ' : `⟨${part.label}⟩`))
    .join('');
}

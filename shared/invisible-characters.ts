/**
 * Characters a reader cannot see or cannot tell apart from a plain space: spaces of every kind,
 * zero-width characters, bidirectional marks and controls. " alice", "alice", "al\u200Bice" and
 * "alice\u00A0" are four different users, so wherever a uid is shown (window, CLI, receipts) these
 * characters are drawn as marks: the space as ␣, every other one as its own short label.
 */

/** How one invisible character is drawn: `label` (e.g. NBSP) and a stable `name` the window words. */
export interface InvisibleMark {
  char: string;
  /** Code point as U+XXXX. */
  code: string;
  /** What is drawn in its place: ␣ for a space, else a short label (NBSP, ZWSP, RLO, TAB, U+2003…). */
  label: string;
  /** Stable key for its accessible name (the window's `uid.marks.*`); 'other' is named by its code. */
  name: InvisibleName;
}

export type InvisibleName = (typeof NAMED)[keyof typeof NAMED]['name'] | 'other';

export type UidPart = { kind: 'text'; text: string } | ({ kind: 'mark' } & InvisibleMark);

const NAMED = {
  '\u0020': { label: '␣', name: 'space' },
  '\u00a0': { label: 'NBSP', name: 'noBreakSpace' },
  '\u202f': { label: 'NNBSP', name: 'narrowNoBreakSpace' },
  '\u2007': { label: 'FIGSP', name: 'figureSpace' },
  '\u3000': { label: 'IDSP', name: 'ideographicSpace' },
  '\u0009': { label: 'TAB', name: 'tab' },
  '\u000a': { label: 'LF', name: 'lineFeed' },
  '\u000d': { label: 'CR', name: 'carriageReturn' },
  '\u0085': { label: 'NEL', name: 'nextLine' },
  '\u2028': { label: 'LSEP', name: 'lineSeparator' },
  '\u2029': { label: 'PSEP', name: 'paragraphSeparator' },
  '\u200b': { label: 'ZWSP', name: 'zeroWidthSpace' },
  '\u200c': { label: 'ZWNJ', name: 'zeroWidthNonJoiner' },
  '\u200d': { label: 'ZWJ', name: 'zeroWidthJoiner' },
  '\u2060': { label: 'WJ', name: 'wordJoiner' },
  '\ufeff': { label: 'BOM', name: 'byteOrderMark' },
  '\u00ad': { label: 'SHY', name: 'softHyphen' },
  '\u200e': { label: 'LRM', name: 'leftToRightMark' },
  '\u200f': { label: 'RLM', name: 'rightToLeftMark' },
  '\u061c': { label: 'ALM', name: 'arabicLetterMark' },
  '\u202a': { label: 'LRE', name: 'bidiControl' },
  '\u202b': { label: 'RLE', name: 'bidiControl' },
  '\u202c': { label: 'PDF', name: 'bidiControl' },
  '\u202d': { label: 'LRO', name: 'bidiControl' },
  '\u202e': { label: 'RLO', name: 'bidiControl' },
  '\u2066': { label: 'LRI', name: 'bidiControl' },
  '\u2067': { label: 'RLI', name: 'bidiControl' },
  '\u2068': { label: 'FSI', name: 'bidiControl' },
  '\u2069': { label: 'PDI', name: 'bidiControl' },
} as const satisfies Record<string, { label: string; name: string }>;

/**
 * Everything else that draws as nothing or as blank: controls (Cc), format characters (Cf: zero-width,
 * bidi, tags…), every space and separator (Zs, Zl, Zp), the Hangul fillers, the braille blank and the
 * combining grapheme joiner. Variation selectors are left alone: they only choose how the character
 * before them looks (the emoji form of ❤), they do not hide anything.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\u034f\u115f\u1160\u3164\uffa0\u2800]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

const codeOf = (char: string) => `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;

/** The mark for one character, or undefined when it is drawn as itself. */
export function invisibleMark(char: string): InvisibleMark | undefined {
  const named = (NAMED as Record<string, { label: string; name: InvisibleName }>)[char];
  if (named) return { char, code: codeOf(char), label: named.label, name: named.name };
  if (!INVISIBLE.test(char)) return undefined;
  const code = codeOf(char);
  return { char, code, label: code, name: 'other' };
}

/**
 * A uid cut into plain runs and marks, in order. A zero-width joiner between two pictographs is part of
 * one emoji (👩‍💻) and stays in the text; anywhere else it is marked.
 */
export function uidParts(uid: string): UidPart[] {
  const chars = [...uid];
  const parts: UidPart[] = [];
  let text = '';
  chars.forEach((char, index) => {
    const mark = invisibleMark(char);
    const joinsEmoji = char === '\u200d' && PICTOGRAPHIC.test(chars[index - 1] ?? '') && PICTOGRAPHIC.test(chars[index + 1] ?? '');
    if (!mark || joinsEmoji) {
      text += char;
      return;
    }
    if (text) parts.push({ kind: 'text', text });
    text = '';
    parts.push({ kind: 'mark', ...mark });
  });
  if (text) parts.push({ kind: 'text', text });
  return parts;
}

/** Whether a uid has anything a reader could miss: a space anywhere, or any invisible character. */
export function hasInvisible(uid: string): boolean {
  return uidParts(uid).some((part) => part.kind === 'mark');
}

/**
 * The uid as one line of plain text with its marks drawn: spaces as ␣, other invisible characters as
 * their label in angle brackets (⟨NBSP⟩, ⟨U+2003⟩). For text-only places: notices, titles, tooltips.
 * Not the uid itself: copy or send the real one.
 */
export function visibleUidText(uid: string): string {
  return uidParts(uid)
    .map((part) => (part.kind === 'text' ? part.text : part.char === ' ' ? '␣' : `⟨${part.label}⟩`))
    .join('');
}

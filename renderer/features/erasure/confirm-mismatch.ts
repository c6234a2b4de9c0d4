import { invisibleMark, type InvisibleMark } from '../../../shared/invisible-characters';

/**
 * Why the typed confirmation is not the uid, when the reason is one a reader cannot see: the signs the
 * console draws for invisible characters (␣ for a space, ⟨NBSP⟩ in plain text…) copied instead of the
 * characters, or invisible characters themselves (a no-break space for a space, a zero-width space…).
 * Case is visible: it is never such a difference.
 */
export type InvisibleDifference =
  /** At `at` (1-based, in the uid) the text has the sign drawn for `stands` where the uid has `uidChar`. */
  | { kind: 'sign'; at: number; sign: string; stands: InvisibleMark; uidChar: InvisibleMark }
  /** At `at` the text has one invisible character where the uid has another (or a plain space). */
  | { kind: 'replaced'; at: number; typedChar: InvisibleMark; uidChar: InvisibleMark }
  /** The text has an invisible character the uid does not have, after the uid's character `after` (0: at the start). */
  | { kind: 'extra'; after: number; typedChar: InvisibleMark }
  /** The uid has an invisible character at `at` that the text does not have. */
  | { kind: 'missing'; at: number; uidChar: InvisibleMark };

interface Unit {
  /** What the reader sees: a space for any space, nothing for a zero-width or other blank character. */
  seen: string;
  raw: string;
  /** The character a drawn sign stands for (␣, ⟨NBSP⟩, ⟨U+2003⟩). */
  sign?: string;
}

const SPACE_LIKE = /^\p{Zs}$/u;
const SIGN = /^⟨([A-Z0-9+]+)⟩/u;

/** The character a drawn sign's label stands for (NBSP → U+00A0, U+2003 → U+2003), if it names one. */
function charOfLabel(label: string): string | undefined {
  const code = /^U\+([0-9A-F]{4,6})$/.exec(label);
  if (code) {
    const char = String.fromCodePoint(Number.parseInt(code[1]!, 16));
    return invisibleMark(char) ? char : undefined;
  }
  return shortLabels().get(label);
}

let labels: Map<string, string> | undefined;
/** Every short label the console draws (NBSP, ZWSP, RLO…), read once from the marks themselves (all in the BMP). */
function shortLabels(): Map<string, string> {
  if (labels) return labels;
  labels = new Map();
  for (let code = 0; code <= 0xffff; code += 1) {
    const char = String.fromCharCode(code);
    const drawn = invisibleMark(char);
    if (drawn && !drawn.label.startsWith('U+') && char !== ' ') labels.set(drawn.label, char);
  }
  return labels;
}

function unitsOf(text: string, readSigns: boolean): Unit[] {
  const units: Unit[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i]!;
    if (readSigns && char === '␣') {
      units.push({ seen: ' ', raw: char, sign: ' ' });
      continue;
    }
    if (readSigns && char === '⟨') {
      const label = SIGN.exec(chars.slice(i).join(''));
      const stands = label ? charOfLabel(label[1]!) : undefined;
      if (label && stands !== undefined) {
        units.push({ seen: seenOf(stands), raw: label[0], sign: stands });
        i += [...label[0]].length - 1;
        continue;
      }
    }
    units.push({ seen: seenOf(char), raw: char });
  }
  return units;
}

function seenOf(char: string): string {
  if (char === ' ' || SPACE_LIKE.test(char)) return ' ';
  return invisibleMark(char) ? '' : char;
}

const mark = (char: string): InvisibleMark => invisibleMark(char) ?? { char, code: `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, label: char, name: 'other' };

/**
 * The exact differences when the text and the uid look alike to a reader (same visible characters, same
 * case, spaces of any kind counted as spaces) yet are not equal; undefined when they do not look alike or are equal.
 */
export function invisibleDifferences(typed: string, uid: string): InvisibleDifference[] | undefined {
  if (typed === uid) return undefined;
  const mine = unitsOf(typed, true);
  const theirs = unitsOf(uid, false);
  if (mine.map((u) => u.seen).join('') !== theirs.map((u) => u.seen).join('')) return undefined;
  const differences: InvisibleDifference[] = [];
  let i = 0;
  let j = 0;
  while (i < mine.length || j < theirs.length) {
    const a = mine[i];
    const b = theirs[j];
    if (a && a.seen === '' && (!b || b.seen !== '')) {
      differences.push({ kind: 'extra', after: j, typedChar: mark(a.sign ?? a.raw) });
      i += 1;
    } else if (b && b.seen === '' && (!a || a.seen !== '')) {
      differences.push({ kind: 'missing', at: j + 1, uidChar: mark(b.raw) });
      j += 1;
    } else if (a && b) {
      // Both seen alike (the same letter, a space of some kind, or nothing): say what really differs.
      if (a.sign !== undefined) differences.push({ kind: 'sign', at: j + 1, sign: a.raw, stands: mark(a.sign), uidChar: mark(b.raw) });
      else if (a.raw !== b.raw) differences.push({ kind: 'replaced', at: j + 1, typedChar: mark(a.raw), uidChar: mark(b.raw) });
      i += 1;
      j += 1;
    } else {
      break;
    }
  }
  return differences.length > 0 ? differences : undefined;
}

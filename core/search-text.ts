import type { MatchRange, SearchedField } from '../shared/user-search';

const COMBINING_MARKS = /\p{M}/gu;

/** What search compares: decomposed (NFD), combining marks removed, lower-cased, so "Émile" and "emile" meet. */
export function searchKey(text: string): string {
  // Most names and e-mails are ASCII: lower-casing is all they need.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase();
}

/**
 * Where `key` (already a search key) occurs in `original`, in the original's own offsets:
 * each code point is folded on its own, so a match maps back to whole characters.
 */
export function matchRanges(field: SearchedField, original: string, key: string): MatchRange[] {
  if (key === '') return [];
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const codePoint of original) {
    const part = searchKey(codePoint);
    for (let i = 0; i < part.length; i += 1) {
      starts.push(offset);
      ends.push(offset + codePoint.length);
    }
    folded += part;
    offset += codePoint.length;
  }
  const ranges: MatchRange[] = [];
  for (let at = folded.indexOf(key); at !== -1; at = folded.indexOf(key, at + key.length)) {
    ranges.push({ field, start: starts[at]!, end: ends[at + key.length - 1]! });
  }
  return ranges;
}

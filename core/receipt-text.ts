/**
 * What the receipt's standard PDF fonts (Helvetica, Courier: WinAnsi encoding)
 * can draw. A character outside it would come out as a wrong glyph or nothing,
 * so the receipt never prints such text as is: it prints the escaped form.
 */

// The code points WinAnsi places at 0x80–0x9F (pdfkit maps exactly these).
const WIN_ANSI_EXTRAS = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
  0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);

// A no-break space looks like a space and a soft hyphen is hidden by the layout; the micro sign's glyph
// ("mu") is read back from the PDF as the Greek letter: each would misstate a value.
const MISLEADING = new Set([0x00a0, 0x00ad, 0x00b5]);

/** Whether the font draws every character of the text as itself. */
export function isDrawable(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (MISLEADING.has(code)) return false;
    const plain = (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff);
    if (!plain && !WIN_ANSI_EXTRAS.has(code)) return false;
  }
  return true;
}

/**
 * The value as a JSON string with every character beyond printable ASCII
 * written as \uXXXX (astral characters as their surrogate pair, as JSON does):
 * always drawable, and it states the value exactly.
 */
export function escapedForm(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Spaces a reader could miscount: leading, trailing or doubled. */
export function hasAmbiguousSpacing(text: string): boolean {
  return /^ | $| {2}/.test(text);
}

/** How a value from the trail or the service is printed: as is when the font draws it, else escaped (never interpreted). */
export function printable(text: string): string {
  return isDrawable(text) ? text : escapedForm(text);
}

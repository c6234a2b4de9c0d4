import { visibleText } from './visible-text';

/** Display width: CJK and other wide characters take two columns in a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x300 && code <= 0x36f) continue; // combining accents add no width
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Cuts a cell to a display width, marking the cut with an ellipsis. */
export function fitCell(text: string, maxWidth: number): string {
  if (displayWidth(text) <= maxWidth) return text;
  let out = '';
  for (const char of text) {
    if (displayWidth(out + char) > maxWidth - 1) break;
    out += char;
  }
  return `${out}…`;
}

export interface Column<Row> {
  title: string;
  value: (row: Row) => string;
  align?: 'left' | 'right';
  maxWidth?: number;
}

/** An aligned plain-text table: a header, a rule, then one line per row. Cells show control characters (newlines too) as escapes. */
export function formatTable<Row>(rows: Row[], columns: Column<Row>[]): string {
  const cells = rows.map((row) => columns.map((column) => fitCell(visibleText(column.value(row)), column.maxWidth ?? 60)));
  const widths = columns.map((column, i) => Math.max(displayWidth(column.title), ...cells.map((line) => displayWidth(line[i] ?? ''))));
  const pad = (text: string, i: number) => {
    const gap = ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
    return columns[i]?.align === 'right' ? gap + text : text + gap;
  };
  const lines = [columns.map((c, i) => pad(c.title, i)), widths.map((w) => '-'.repeat(w)), ...cells.map((line) => line.map((cell, i) => pad(cell, i)))];
  return lines.map((line) => line.join('  ').trimEnd()).join('\n');
}

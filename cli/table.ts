import stringWidth from 'string-width';
import { visibleText } from './visible-text';

/** Columns a terminal gives the text: East Asian wide and emoji take two, combining marks and joiners none (string-width). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts a cell to a display width, marking the cut with an ellipsis; never splits a character (an emoji sequence, a letter and its accent). */
export function fitCell(text: string, maxWidth: number): string {
  if (displayWidth(text) <= maxWidth) return text;
  let out = '';
  let width = 0;
  for (const { segment } of graphemes.segment(text)) {
    const next = displayWidth(segment);
    if (width + next > maxWidth - 1) break;
    out += segment;
    width += next;
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

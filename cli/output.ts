import { CommanderError } from 'commander';
import { isPrivacyDeskError, toErrorInfo, type ErrorCode } from '../shared/errors';

/** Exit codes are part of the CLI's contract. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

// The operator asked for something invalid (nothing was sent): usage-class errors.
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set(['INVALID_INPUT', 'CONFIRMATION_MISMATCH', 'PROFILE_NOT_FOUND']);

/** Results go to stdout (so --json can be piped); everything else to stderr. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Prints `CODE: message` on stderr and returns the exit code for it. */
export function reportError(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE; // commander already printed it
  const info = toErrorInfo(error);
  const extras = [info.status !== undefined ? `status ${info.status}` : '', info.requestId ? `request id ${info.requestId}` : ''].filter(Boolean);
  note(`${info.code}: ${info.message}${extras.length ? ` (${extras.join(', ')})` : ''}`);
  return isPrivacyDeskError(error) && USAGE_CODES.has(error.code) ? EXIT_USAGE : EXIT_FAILED;
}

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

/** An aligned plain-text table: a header, a rule, then one line per row. */
export function formatTable<Row>(rows: Row[], columns: Column<Row>[]): string {
  const cells = rows.map((row) => columns.map((column) => fitCell(column.value(row), column.maxWidth ?? 60)));
  const widths = columns.map((column, i) => Math.max(displayWidth(column.title), ...cells.map((line) => displayWidth(line[i] ?? ''))));
  const pad = (text: string, i: number) => {
    const gap = ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
    return columns[i]?.align === 'right' ? gap + text : text + gap;
  };
  const lines = [columns.map((c, i) => pad(c.title, i)), widths.map((w) => '-'.repeat(w)), ...cells.map((line) => line.map((cell, i) => pad(cell, i)))];
  return lines.map((line) => line.join('  ').trimEnd()).join('\n');
}

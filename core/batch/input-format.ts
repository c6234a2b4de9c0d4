import { invalidInput } from '../../shared/errors';
import { SEPARATOR_CHARACTERS, type BatchSeparator } from '../../shared/batch';
import { msg } from '../../shared/messages';
import type { MessageText } from '../../shared/message-text';

export type BatchInputKind = 'list' | 'csv' | 'tsv';

/** How an input is read: one uid a line, or rows whose columns a separator splits. */
export type InputFormat = { kind: 'list' } | { kind: 'csv'; separator: 'comma' | 'semicolon' } | { kind: 'tsv'; separator: 'tab' };

/** Header cells that name the uid column (compared trimmed, ignoring case). */
const UID_COLUMN_NAMES = new Set(['uid', 'user id', 'userid', 'user_id', 'user uid', 'identifiant', 'identifiant utilisateur', 'id utilisateur']);

/** The separators a CSV file's first line is tried with, the comma first. */
const CSV_SEPARATORS = ['comma', 'semicolon'] as const;

export function uidColumnIndex(cells: readonly string[]): number {
  return cells.findIndex((cell) => UID_COLUMN_NAMES.has(cell.trim().toLowerCase()));
}

/** A header line's cells, split by one separator; a cell in double quotes loses them. */
function headerCells(line: string, separator: BatchSeparator): string[] {
  return line.split(SEPARATOR_CHARACTERS[separator]).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
}

/** A line that names a uid column once split by a comma, a semicolon or a tab ("uid", "uid;référence"…). */
export function namesUidColumn(line: string): boolean {
  return (['comma', 'semicolon', 'tab'] as const).some((separator) => uidColumnIndex(headerCells(line, separator)) !== -1);
}

/**
 * The documented, conservative rule for 'auto' (uids may hold commas, semicolons, spaces, '#', '%'):
 * a tab in the sample → TSV (a uid can never hold a tab); a comma or a semicolon in the first line AND
 * either a column was picked (by name or number) or that line, split by it, names a uid column (like
 * "uid") → CSV with that separator; anything else → a list (whose lines are then checked: lines that
 * look like rows of columns are refused, see parse-input.ts).
 */
export function guessFormat(sample: string, pickedColumn?: string | number): InputFormat {
  if (sample.includes('\t')) return { kind: 'tsv', separator: 'tab' };
  const separator = guessCsvSeparator(firstLineOf(sample), pickedColumn, false);
  return separator ? { kind: 'csv', separator } : { kind: 'list' };
}

/**
 * The separator of a CSV file's first line: the one that splits it into a uid column (or the picked
 * column's name); with a column picked by number, or when told it is CSV, the one the line holds most
 * (a comma on a tie). Undefined when nothing says it is CSV.
 */
export function guessCsvSeparator(firstLine: string, pickedColumn: string | number | undefined, isCsv: boolean): 'comma' | 'semicolon' | undefined {
  const present = CSV_SEPARATORS.filter((separator) => firstLine.includes(SEPARATOR_CHARACTERS[separator]));
  const naming = present.find((separator) => {
    const cells = headerCells(firstLine, separator);
    return typeof pickedColumn === 'string' ? cells.includes(pickedColumn) : uidColumnIndex(cells) !== -1;
  });
  if (naming) return naming;
  if (pickedColumn === undefined && !isCsv) return undefined;
  if (present.length === 0) return isCsv ? 'comma' : undefined;
  const count = (separator: BatchSeparator) => firstLine.split(SEPARATOR_CHARACTERS[separator]).length;
  return present.reduce((best, separator) => (count(separator) > count(best) ? separator : best));
}

/** The format to read: the operator's choice (kind, separator), else guessed from the sample. */
export function inputFormat(sample: string, options: { kind: 'auto' | BatchInputKind; separator?: BatchSeparator; pickedColumn?: string | number }): InputFormat {
  const { kind, separator, pickedColumn } = options;
  if (separator === 'tab') return { kind: 'tsv', separator };
  if (separator !== undefined) return { kind: 'csv', separator };
  if (kind === 'list') return { kind };
  if (kind === 'tsv') return { kind, separator: 'tab' };
  if (kind === 'csv') return { kind, separator: guessCsvSeparator(firstLineOf(sample), pickedColumn, true) ?? 'comma' };
  return guessFormat(sample, pickedColumn);
}

function firstLineOf(sample: string): string {
  const newline = sample.indexOf('\n');
  return newline === -1 ? sample : sample.slice(0, newline);
}

/**
 * Counts the lines of a list that hold a separator. Read as a list, a line like "user-000070;DSR-1" is one
 * uid, which ends "not found" while user-000070 keeps their data: when most lines look like that, the input
 * is a table whose columns were not split, and a guessed list is refused (the operator chooses the
 * separator, or says each whole line is one uid).
 */
export function delimitedLineCounter() {
  let lines = 0;
  const found = new Map<BatchSeparator, { count: number; line: number; text: string }>();
  return {
    add(line: number, text: string): void {
      lines += 1;
      for (const separator of ['semicolon', 'comma', 'tab'] as const) {
        if (!text.includes(SEPARATOR_CHARACTERS[separator])) continue;
        const seen = found.get(separator);
        if (seen) seen.count += 1;
        else found.set(separator, { count: 1, line, text });
      }
    },
    /** The separator most lines hold (more than half of them), with the first such line; undefined when none does. */
    mostLines(): { separator: BatchSeparator; count: number; lines: number; line: number; text: string } | undefined {
      let most: { separator: BatchSeparator; count: number; line: number; text: string } | undefined;
      for (const [separator, seen] of found) if (!most || seen.count > most.count) most = { separator, ...seen };
      return most && most.count * 2 > lines ? { ...most, lines } : undefined;
    },
  };
}

/** The separator in words: "a semicolon (;)". */
export function separatorName(separator: BatchSeparator): MessageText {
  return SEPARATOR_NAMES[separator];
}

const SEPARATOR_NAMES: Record<BatchSeparator, MessageText> = {
  comma: msg('batch.separator.comma'),
  semicolon: msg('batch.separator.semicolon'),
  tab: msg('batch.separator.tab'),
};

/** The refusal of a guessed list whose lines look like rows of columns. */
export function listLooksDelimited(found: { separator: BatchSeparator; count: number; lines: number; line: number }, excerpt: string) {
  return invalidInput(msg('batch.listLooksDelimited', { count: found.count, lines: found.lines, separator: separatorName(found.separator), line: found.line, excerpt }));
}

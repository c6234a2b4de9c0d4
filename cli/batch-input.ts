import { open } from 'node:fs/promises';
import type { BatchInputSource } from '../core/batch/text-chunks';
import type { BatchSeparator } from '../shared/batch';
import { invalidInput, isPrivacyDeskError, PrivacyDeskError } from '../shared/errors';
import type { CliIo } from './io';

/** Longest source name kept in a job's plan (the bridge allows as much). */
const MAX_SOURCE_NAME = 300;
const MAX_COLUMN_INDEX = 10_000;

export interface BatchInput {
  source: BatchInputSource;
  sourceName: string;
  /** Standard input holds the list, so it cannot also answer a question. */
  fromStdin: boolean;
}

/**
 * FILE as a stream (never read whole: 100,000 uids are fine), or standard input for "-".
 * Opened here so that a missing or unreadable file is a clear usage error before anything else.
 */
export async function openBatchInput(file: string, io: Pick<CliIo, 'stdin'>): Promise<BatchInput> {
  if (file === '-') return { source: io.stdin, sourceName: 'standard input', fromStdin: true };
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw invalidInput(`Cannot read "${file}": ${fileProblem(error)}. Give a list, CSV or TSV file, or "-" for standard input.`);
  }
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw invalidInput(`"${file}" is a folder: give a list, CSV or TSV file, or "-" for standard input.`);
  }
  return { source: handle.createReadStream(), sourceName: file.length > MAX_SOURCE_NAME ? `…${file.slice(-(MAX_SOURCE_NAME - 1))}` : file, fromStdin: false };
}

function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? 'it cannot be opened';
}

/** --column / --reference-column: all digits is a 0-based index, anything else a header name. */
export function parseColumn(value: string | undefined, option: string): string | number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) {
    const index = Number(value);
    if (index > MAX_COLUMN_INDEX) throw invalidInput(`${option} ${value}: a column index is at most ${MAX_COLUMN_INDEX} (0 is the first column).`);
    return index;
  }
  if (value.trim() === '' || value.length > 200) throw invalidInput(`${option} takes a header name (1 to 200 characters) or a 0-based column index.`);
  return value;
}

/** --separator: what the core is told about the input's format (nothing: it guesses). */
export function parseSeparator(value: string | undefined): { kind?: 'list'; separator?: BatchSeparator } {
  if (value === undefined) return {};
  const named = SEPARATOR_WORDS[value.trim().toLowerCase()];
  if (named === undefined) throw invalidInput(`--separator takes comma, semicolon, tab or none (one uid a line, each line whole), not "${value}".`);
  return named === 'none' ? { kind: 'list' } : { separator: named };
}

const SEPARATOR_WORDS: Record<string, BatchSeparator | 'none'> = { comma: 'comma', ',': 'comma', semicolon: 'semicolon', ';': 'semicolon', tab: 'tab', '\t': 'tab', none: 'none', list: 'none' };

/** The core's refusal of rows read as a list, with the options that choose (the message says "choose" for the console and the CLI alike). */
export function withSeparatorHint(error: unknown): never {
  if (!isPrivacyDeskError(error) || error.text?.id !== 'batch.listLooksDelimited') throw error;
  throw new PrivacyDeskError({
    code: error.code,
    outcome: error.outcome,
    text: error.text,
    message: `${error.message} Here: --separator semicolon (or comma, tab) with --column NAME or a 0-based index; or --separator none to read each whole line as one uid.`,
  });
}

import { Readable } from 'node:stream';
import Papa from 'papaparse';
import { withoutTrailingCr } from './text-chunks';

export interface CsvRow {
  /** 1-based source line where the row starts (a quoted cell may span several lines). */
  line: number;
  cells: string[];
}

/**
 * CSV or TSV rows, streamed through papaparse (quoting, embedded delimiters and newlines).
 * Empty rows are kept here, so that line numbers can be counted: a row covers one line plus
 * the newlines inside its quoted cells. papaparse guesses the line ending from the first
 * chunk, so the caller passes a large first chunk (see peekText).
 */
export async function* csvRows(chunks: AsyncIterable<string>, delimiter: ',' | '\t'): AsyncGenerator<CsvRow> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter, skipEmptyLines: false });
  const text = Readable.from(chunks, { objectMode: false });
  text.on('error', (error) => parser.destroy(error));
  text.pipe(parser);
  let line = 1;
  for await (const cells of parser as AsyncIterable<string[]>) {
    const row = { line, cells };
    line += 1 + cells.reduce((count, cell) => count + countNewlines(cell), 0);
    // A safeguard when the guessed line ending was '\n' but a later line ends with CRLF.
    const last = cells.at(-1);
    if (last !== undefined) cells[cells.length - 1] = withoutTrailingCr(last);
    yield row;
  }
}

function countNewlines(cell: string): number {
  let count = 0;
  for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count += 1;
  return count;
}

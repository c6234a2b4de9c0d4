import { lineTooLong, MAX_LINE_LENGTH } from './text-chunks';

export interface CsvRow {
  /** 1-based source line where the row starts (a quoted cell may span several lines). */
  line: number;
  cells: string[];
}

type State =
  /** At the start of a cell. */
  | 'cell-start'
  /** In a cell that did not start with a quote: quotes in it are plain characters. */
  | 'plain'
  /** In a quoted cell. */
  | 'quoted'
  /** Just after a quote inside a quoted cell: a second quote, the end of the cell, or a stray quote. */
  | 'quote';

/**
 * CSV or TSV rows, parsed as the text streams in, in one pass (linear in the input, whatever the
 * chunks): quoted cells may hold the delimiter, line breaks and doubled quotes (""). The rules are
 * papaparse's, which read these files before: a cell is quoted only when its first character is a
 * quote; a closing quote may be followed by spaces before the delimiter or the line end; any other
 * quote inside a quoted cell is kept as a character. Rows end at '\n' (a '\r' before it is dropped).
 * Empty rows are kept (a line ['']), so that line numbers can be counted. A row longer than
 * `maxLength` characters is refused as soon as it is, with its line and where an open quote began.
 *
 * Why not a library: papaparse re-scans a row that spans chunks from its start at every chunk (quadratic on
 * a file without line breaks, minutes and gigabytes for 100 MB) and cannot stop at a length; csv-parse has a
 * record-size limit, but reads CRLF files as "\r"-ended cells once the first line decided on "\n", and its
 * tolerant mode keeps a stray quote's whole cell raw. The tests read our own exports back with papaparse.
 */
export async function* csvRows(chunks: AsyncIterable<string>, delimiter: ',' | ';' | '\t', maxLength = MAX_LINE_LENGTH): AsyncGenerator<CsvRow> {
  const plainEnd = new RegExp(PLAIN_ENDS[delimiter]);
  let state: State = 'cell-start';
  let cells: string[] = [];
  let cell: string[] = [];
  /** Spaces or a '\r' seen after a closing quote, kept until what follows says whether the quote closed the cell. */
  let afterQuote = '';
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  let consumed = 0;
  let rowStart = 0;
  const rows: CsvRow[] = [];

  const endCell = () => {
    cells.push(cell.length === 1 ? (cell[0] as string) : cell.join(''));
    cell = [];
    afterQuote = '';
    state = 'cell-start';
  };
  const endRow = (at: number) => {
    endCell();
    rows.push({ line: rowLine, cells });
    cells = [];
    line += 1;
    rowLine = line;
    rowStart = at;
  };

  for await (const chunk of chunks) {
    let at = 0;
    while (at < chunk.length) {
      if (state === 'cell-start') {
        if (chunk.charCodeAt(at) === 0x22) {
          state = 'quoted';
          quoteLine = line;
          at += 1;
        } else {
          state = 'plain';
        }
      } else if (state === 'plain') {
        plainEnd.lastIndex = at;
        const found = plainEnd.exec(chunk);
        const end = found ? found.index : chunk.length;
        if (end > at) cell.push(chunk.slice(at, end));
        at = end;
        if (!found) break;
        at += 1;
        if (found[0] === '\n') {
          const last = cell.at(-1);
          if (last?.endsWith('\r')) cell[cell.length - 1] = last.slice(0, -1);
          endRow(consumed + at);
        } else {
          endCell();
        }
      } else if (state === 'quoted') {
        const quote = chunk.indexOf('"', at);
        const end = quote === -1 ? chunk.length : quote;
        if (end > at) {
          const text = chunk.slice(at, end);
          cell.push(text);
          line += countNewlines(text);
        }
        at = end;
        if (quote === -1) break;
        at += 1;
        state = 'quote';
      } else {
        const char = chunk[at] as string;
        if (char === '"' && afterQuote === '') {
          cell.push('"');
          state = 'quoted';
          at += 1;
        } else if (char === ' ' || (char === '\r' && !afterQuote.includes('\r'))) {
          afterQuote += char;
          at += 1;
        } else if (char === delimiter) {
          at += 1;
          endCell();
        } else if (char === '\n') {
          at += 1;
          endRow(consumed + at);
        } else {
          // A stray quote: kept, with what followed it, and the cell goes on.
          cell.push(`"${afterQuote}`);
          afterQuote = '';
          state = 'quoted';
        }
      }
      if (consumed + at - rowStart > maxLength) throw lineTooLong(rowLine, maxLength, state === 'quoted' ? quoteLine : undefined);
    }
    consumed += chunk.length;
    if (consumed - rowStart > maxLength) throw lineTooLong(rowLine, maxLength, state === 'quoted' ? quoteLine : undefined);
    yield* rows;
    rows.length = 0;
  }
  if (state === 'quoted') {
    // Never closed (a short file: a long one is refused above): the cell keeps its opening quote, as papaparse did.
    cell.unshift('"');
  } else if (state === 'plain') {
    const last = cell.at(-1);
    if (last?.endsWith('\r')) cell[cell.length - 1] = last.slice(0, -1);
  }
  if (state !== 'cell-start' || cells.length > 0) {
    endCell();
    yield { line: rowLine, cells };
  }
}

/** Where a plain (unquoted) cell ends: its delimiter or the line's end. */
const PLAIN_ENDS = { ',': /[,\n]/g, ';': /[;\n]/g, '\t': /[\t\n]/g } as const;

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

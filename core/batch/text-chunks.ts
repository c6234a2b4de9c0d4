import { invalidInput, type PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';

/** What a batch's input can be: the text itself, or a stream of it (a Node Readable is an async iterable). */
export type BatchInputSource = string | AsyncIterable<string | Uint8Array>;

/**
 * The longest line (for a CSV or TSV file: the longest row, quoted line breaks included) a batch
 * input may have. A uid is at most 1,024 characters and a reference 200, so a longer line is not a
 * list of uids: most often a file without line breaks, or a CSV quote that is never closed (which
 * makes the rest of the file one cell). Refused as soon as it is met, before the rest is read.
 */
export const MAX_LINE_LENGTH = 1_000_000;

/** Text given whole is read in slices of this size, so parsing it is as streamed as reading a file. */
const TEXT_SLICE = 64 * 1024;

/** The source as text chunks, UTF-8 decoded across chunk boundaries, without a leading BOM. */
export async function* textChunks(source: BatchInputSource): AsyncGenerator<string> {
  let first = true;
  const withoutBom = (text: string): string => {
    if (!first || text.length === 0) return text;
    first = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  if (typeof source === 'string') {
    yield* textSlices(withoutBom(source));
    return;
  }
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const kept = withoutBom(text);
    if (kept.length > 0) yield kept;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield withoutBom(rest);
}

/** A long text in slices, never cutting a surrogate pair in two. */
function* textSlices(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + TEXT_SLICE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

/** Reads at least `size` characters (or everything) so the format can be guessed, without losing any. */
export async function peekText(
  chunks: AsyncIterator<string>,
  size: number,
): Promise<{ sample: string; all: AsyncGenerator<string> }> {
  const taken: string[] = [];
  let length = 0;
  let ended = false;
  while (length < size) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    taken.push(next.value);
    length += next.value.length;
  }
  async function* all(): AsyncGenerator<string> {
    yield* taken;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  return { sample: taken.join(''), all: all() };
}

/**
 * Plain lines with their 1-based numbers; a trailing '\r' (CRLF) is dropped, nothing else is touched.
 * Linear in the input: each chunk is searched once, and the pieces of a line spread over several
 * chunks are joined once, when it ends. A line longer than `maxLength` is refused as soon as it is.
 */
export async function* numberedLines(chunks: AsyncIterable<string>, maxLength = MAX_LINE_LENGTH): AsyncGenerator<{ line: number; text: string }> {
  let pieces: string[] = [];
  let piecesLength = 0;
  let line = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      line += 1;
      if (piecesLength + (end - start) > maxLength) throw lineTooLong(line, maxLength);
      const piece = chunk.slice(start, end);
      const text = pieces.length === 0 ? piece : pieces.join('') + piece;
      pieces = [];
      piecesLength = 0;
      yield { line, text: withoutTrailingCr(text) };
      start = end + 1;
    }
    if (start < chunk.length) {
      pieces.push(start === 0 ? chunk : chunk.slice(start));
      piecesLength += chunk.length - start;
      if (piecesLength > maxLength) throw lineTooLong(line + 1, maxLength);
    }
  }
  if (piecesLength > 0) yield { line: line + 1, text: withoutTrailingCr(pieces.join('')) };
}

export function withoutTrailingCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** The refusal of an over-long line (or CSV row), naming its number and the limit. */
export function lineTooLong(line: number, maxLength: number, openQuoteLine?: number): PrivacyDeskError {
  return invalidInput(
    openQuoteLine === undefined ? msg('batch.lineTooLong', { line, limit: maxLength }) : msg('batch.quoteNeverClosed', { line, limit: maxLength, quoteLine: openQuoteLine }),
  );
}

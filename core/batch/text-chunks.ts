/** What a batch's input can be: the text itself, or a stream of it (a Node Readable is an async iterable). */
export type BatchInputSource = string | AsyncIterable<string | Uint8Array>;

/** The source as text chunks, UTF-8 decoded across chunk boundaries, without a leading BOM. */
export async function* textChunks(source: BatchInputSource): AsyncGenerator<string> {
  let first = true;
  const withoutBom = (text: string): string => {
    if (!first || text.length === 0) return text;
    first = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  if (typeof source === 'string') {
    yield withoutBom(source);
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

/** Reads at least `size` characters (or everything) so the format can be guessed, without losing any. */
export async function peekText(
  chunks: AsyncIterator<string>,
  size: number,
): Promise<{ sample: string; all: AsyncGenerator<string> }> {
  let sample = '';
  let ended = false;
  while (sample.length < size) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    sample += next.value;
  }
  async function* all(): AsyncGenerator<string> {
    if (sample.length > 0) yield sample;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  return { sample, all: all() };
}

/** Plain lines with their 1-based numbers; a trailing '\r' (CRLF) is dropped, nothing else is touched. */
export async function* numberedLines(chunks: AsyncIterable<string>): AsyncGenerator<{ line: number; text: string }> {
  let pending = '';
  let line = 0;
  for await (const chunk of chunks) {
    pending += chunk;
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      line += 1;
      yield { line, text: withoutTrailingCr(pending.slice(start, end)) };
      start = end + 1;
    }
    pending = pending.slice(start);
  }
  if (pending.length > 0) yield { line: line + 1, text: withoutTrailingCr(pending) };
}

export function withoutTrailingCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/**
 * The Server-Sent Events text format (WHATWG HTML, "event stream
 * interpretation"), written by the web host and read by the page. The page
 * reads the stream with fetch() rather than EventSource, because EventSource
 * cannot send the token header.
 */

export interface ServerSentEvent {
  /** The `event:` field; "message" when the server named none. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/** One event as text; `data` may span lines (each becomes its own `data:` line). */
export function formatServerSentEvent(event: string, data: string): string {
  if (LINE_BREAK.test(event)) throw new Error('A server-sent event name cannot contain a line break.');
  const lines = data.split(LINE_BREAK).map((line) => `data: ${line}\n`);
  return `event: ${event}\n${lines.join('')}\n`;
}

/** A comment line: ignored by readers; flushes the headers and shows the stream is open. */
export function formatServerSentComment(text: string): string {
  return `: ${text.replace(/\r\n|\r|\n/g, ' ')}\n\n`;
}

/**
 * An incremental reader: push decoded text as it arrives (chunks may split a
 * line, or a CR LF pair, anywhere); each complete event goes to `onEvent`.
 * Comments, `id:` and `retry:` are ignored, as are events without data.
 */
export function createServerSentEventParser(onEvent: (event: ServerSentEvent) => void): { push(text: string): void } {
  let pending = '';
  let atStart = true;
  let skipNextLineFeed = false;
  let eventName = '';
  let dataLines: string[] = [];

  const takeLine = (line: string) => {
    if (line === '') {
      if (dataLines.length > 0) onEvent({ event: eventName || 'message', data: dataLines.join('\n') });
      eventName = '';
      dataLines = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') eventName = value;
    else if (field === 'data') dataLines.push(value);
  };

  return {
    push(text: string) {
      let chunk = text;
      if (chunk.length === 0) return;
      if (atStart) {
        atStart = false;
        if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
      }
      // A CR ended the previous chunk: an LF opening this one belongs to the same line break.
      if (skipNextLineFeed && chunk.startsWith('\n')) chunk = chunk.slice(1);
      skipNextLineFeed = false;
      pending += chunk;
      let lineStart = 0;
      for (let i = 0; i < pending.length; i += 1) {
        const char = pending[i];
        if (char !== '\n' && char !== '\r') continue;
        takeLine(pending.slice(lineStart, i));
        if (char === '\r') {
          if (i + 1 === pending.length) skipNextLineFeed = true;
          else if (pending[i + 1] === '\n') i += 1;
        }
        lineStart = i + 1;
      }
      pending = pending.slice(lineStart);
    },
  };
}

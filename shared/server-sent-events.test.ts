import { describe, expect, it } from 'vitest';
import { createServerSentEventParser, formatServerSentComment, formatServerSentEvent, type ServerSentEvent } from './server-sent-events';

function parseAll(chunks: string[]): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = createServerSentEventParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

describe('Server-Sent Events text', () => {
  it('reads back what the host writes, comments skipped', () => {
    const text = formatServerSentComment('connected') + formatServerSentEvent('job.progress', '{"page":1}') + formatServerSentEvent('job.finished', 'two\nlines');
    expect(parseAll([text])).toEqual([
      { event: 'job.progress', data: '{"page":1}' },
      { event: 'job.finished', data: 'two\nlines' },
    ]);
  });

  it('reads an event split anywhere, one character at a time', () => {
    const text = formatServerSentEvent('job.progress', '{"uid":"zoë"}') + formatServerSentEvent('job.finished', '{}');
    expect(parseAll([...text])).toEqual(parseAll([text]));
    expect(parseAll([...text])).toHaveLength(2);
  });

  it('accepts CR LF, CR and LF line ends, even with a CR LF pair split between chunks', () => {
    expect(parseAll(['event: a\r\ndata: 1\r', '\n\r', '\nevent: b\rdata: 2\r\rdata: 3\n\n'])).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
      { event: 'message', data: '3' },
    ]);
  });

  it('follows the format: a leading BOM, one optional space after the colon, no data means no event, unknown fields ignored', () => {
    expect(parseAll(['\uFEFFdata:x\n\n', 'data:  two spaces\n\n', 'event: empty\n\n', 'id: 7\nretry: 10\nfoo: bar\ndata\n\n'])).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: ' two spaces' },
      { event: 'message', data: '' },
    ]);
  });

  it('keeps an unfinished event until its blank line comes', () => {
    const events: ServerSentEvent[] = [];
    const parser = createServerSentEventParser((event) => events.push(event));
    parser.push('event: job.progress\ndata: {}\n');
    expect(events).toEqual([]);
    parser.push('\n');
    expect(events).toEqual([{ event: 'job.progress', data: '{}' }]);
  });

  it('refuses an event name with a line break, which would forge another field', () => {
    expect(() => formatServerSentEvent('job.progress\ndata: x', '{}')).toThrow(/line break/);
    expect(formatServerSentComment('a\nb')).toBe(': a b\n\n');
  });
});

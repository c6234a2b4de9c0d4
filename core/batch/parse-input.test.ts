import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isPrivacyDeskError } from '../../shared/errors';
import { uidProblem } from '../../shared/uid';
import { referenceProblemMessage, uidProblemMessage } from '../input-problems';
import { guessKind, MAX_LISTED_INVALID, parseBatchInput, type BatchInputItem, type BatchInputOptions, type BatchInputSource } from './parse-input';
import { MAX_LINE_LENGTH } from './text-chunks';

async function parse(source: BatchInputSource, options: BatchInputOptions = { kind: 'auto' }) {
  const items: BatchInputItem[] = [];
  const summary = await parseBatchInput(source, options, (item) => {
    items.push(item);
  });
  return { items, summary, uids: items.map((item) => item.uid) };
}

async function refusal(source: BatchInputSource, options: BatchInputOptions): Promise<{ code: string; message: string }> {
  try {
    await parse(source, options);
  } catch (error) {
    if (!isPrivacyDeskError(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('expected a refusal');
}

const AWKWARD_UIDS = ['jean dupont', 'bob+news@example.org', 'team/lead', 'hash#tag', '100%done', 'zoë.müller', '東京ユーザー', ' leading space'];

describe('parseBatchInput: plain lists', () => {
  it('keeps awkward uids exactly, one a line, with their line numbers', async () => {
    const { items, summary } = await parse(AWKWARD_UIDS.join('\n'));
    expect(summary.kind).toBe('list');
    expect(items).toEqual(AWKWARD_UIDS.map((uid, index) => ({ line: index + 1, uid })));
  });

  it('keeps commas in a list when the first line names no uid column', async () => {
    const { uids, summary } = await parse('Dupont, Jean\nalice\n');
    expect(summary.kind).toBe('list');
    expect(uids).toEqual(['Dupont, Jean', 'alice']);
  });

  it('drops CRLF and the BOM, skips empty lines and counts the right lines', async () => {
    const { items } = await parse('\uFEFFalice\r\n\r\n\nbob\r\n  \r\ncarol');
    expect(items).toEqual([
      { line: 1, uid: 'alice' },
      { line: 4, uid: 'bob' },
      { line: 5, uid: '  ' },
      { line: 6, uid: 'carol' },
    ]);
  });

  it('removes exact duplicates only, keeping the first, and counts them', async () => {
    const { uids, summary } = await parse('alice\nAlice\nalice\n alice\nalice\nzoë\nzoe\u0308\n');
    expect(uids).toEqual(['alice', 'Alice', ' alice', 'zoë', 'zoe\u0308']);
    expect(summary.duplicates).toBe(2);
    expect(summary.items).toBe(5);
  });

  it('lists invalid uids with their line, the single-act reason and a printable excerpt', async () => {
    const tooLong = 'x'.repeat(1025);
    const { uids, summary } = await parse(`alice\n..\ncut \uD83D here\n${tooLong}\nbob`);
    expect(uids).toEqual(['alice', 'bob']);
    expect(summary.invalidCount).toBe(3);
    expect(summary.invalid).toEqual([
      { line: 2, problem: { code: 'dot-segment', uid: '..' }, reason: uidProblemMessage({ code: 'dot-segment', uid: '..' }), excerpt: '..' },
      { line: 3, problem: { code: 'invalid-unicode' }, reason: uidProblemMessage({ code: 'invalid-unicode' }), excerpt: 'cut \\ud83d here' },
      { line: 4, problem: uidProblem(tooLong), reason: uidProblemMessage(uidProblem(tooLong)!), excerpt: `${'x'.repeat(80)}…` },
    ]);
    expect(summary.invalid[1]?.reason).toContain('broken character');
  });

  it('decodes UTF-8 split across stream chunks', async () => {
    const bytes = Buffer.from('\uFEFFzoë.müller\n東京ユーザー\n');
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    const { uids } = await parse(Readable.from(chunks));
    expect(uids).toEqual(['zoë.müller', '東京ユーザー']);
  });
});

describe('parseBatchInput: CSV and TSV', () => {
  it('reads quoted CSV with commas and newlines in cells, by header name, with a reference column', async () => {
    const csv = '\uFEFFuid,ticket\r\n"Dupont, Jean",T-1\r\n"two\r\nlines",T-2\r\n\r\nhash#tag,"say ""hi"""\r\nplain,\r\n';
    const { items, summary } = await parse(csv, { kind: 'auto', referenceColumn: 'ticket' });
    expect(summary.kind).toBe('csv');
    expect(summary.columns).toEqual(['uid', 'ticket']);
    expect(items).toEqual([
      { line: 2, uid: 'Dupont, Jean', reference: 'T-1' },
      { line: 6, uid: 'hash#tag', reference: 'say "hi"' },
      { line: 7, uid: 'plain' },
    ]);
    // The uid with a line break inside its quoted cell is refused as a single act would refuse it.
    expect(summary.invalid).toEqual([{ line: 3, problem: { code: 'control-character' }, reason: uidProblemMessage({ code: 'control-character' }), excerpt: 'two\\u000d\\u000alines' }]);
  });

  it('picks a uid column by its header name', async () => {
    const { uids, summary } = await parse('name,account\nJean,jean dupont\nBob,bob+news@example.org\n', { kind: 'auto', uidColumn: 'account' });
    expect(summary.kind).toBe('csv');
    expect(uids).toEqual(['jean dupont', 'bob+news@example.org']);
  });

  it('picks columns by 0-based index in a TSV without a header', async () => {
    const tsv = 'T-1\tteam/lead\nT-2\t100%done\r\n\nT-3\tteam/lead\n';
    const { items, summary } = await parse(tsv, { kind: 'auto', uidColumn: 1, referenceColumn: 0 });
    expect(summary.kind).toBe('tsv');
    expect(summary.columns).toBeUndefined();
    expect(items).toEqual([
      { line: 1, uid: 'team/lead', reference: 'T-1' },
      { line: 2, uid: '100%done', reference: 'T-2' },
    ]);
    expect(summary.duplicates).toBe(1);
  });

  it('finds the uid column of a spreadsheet TSV by its header', async () => {
    const { uids, summary } = await parse('Name\tUID\nJean\t jean\n', { kind: 'auto' });
    expect(summary.columns).toEqual(['Name', 'UID']);
    expect(uids).toEqual([' jean']);
  });

  it('refuses a missing column with INVALID_INPUT naming the columns found', async () => {
    const byName = await refusal('uid,ticket\nalice,T-1\n', { kind: 'csv', uidColumn: 'uid', referenceColumn: 'case' });
    expect(byName.code).toBe('INVALID_INPUT');
    expect(byName.message).toContain('no column named “case” for the reference');
    expect(byName.message).toContain('"uid", "ticket"');
    const byIndex = await refusal('uid,ticket\nalice,T-1\n', { kind: 'csv', uidColumn: 2 });
    expect(byIndex.code).toBe('INVALID_INPUT');
    expect(byIndex.message).toContain('"uid", "ticket"');
  });

  it('reads a CSV by a picked column even when no header is named like a uid, and refuses a misspelt one', async () => {
    const csv = 'E-mail,Account,Ticket\r\nann@example.org,user-61,R-61\r\n';
    const { items, summary } = await parse(csv, { kind: 'auto', uidColumn: 'Account', referenceColumn: 'Ticket' });
    expect(summary).toMatchObject({ kind: 'csv', uidColumn: { index: 1, name: 'Account' } });
    expect(items).toEqual([{ line: 2, uid: 'user-61', reference: 'R-61' }]);
    const misspelt = await refusal(csv, { kind: 'auto', uidColumn: 'Acount' });
    expect(misspelt.message).toContain('no column named “Acount” for the uid');
    expect(misspelt.message).toContain('"E-mail", "Account", "Ticket"');
  });

  it('refuses a column picked for a plain list instead of ignoring it', async () => {
    expect((await refusal('alice\nbob\n', { kind: 'auto', referenceColumn: 1 })).message).toContain('read as a list');
    expect((await refusal('alice\nbob\n', { kind: 'auto', uidColumn: 'Account' })).message).toContain('no column “Account” for the uid');
  });

  it('skips the header of a one-column export ("User ID") instead of erasing a user of that name', async () => {
    const { uids, summary } = await parse('User ID\r\nuser-80\r\nuser-81\r\n');
    expect(summary).toMatchObject({ kind: 'list', columns: ['User ID'], items: 2 });
    expect(uids).toEqual(['user-80', 'user-81']);
  });

  it('says which uids begin or end with spaces (kept exactly, as for a single act)', async () => {
    const { uids, summary } = await parse('alice\nbob   \n carol\ndave\n');
    expect(uids).toEqual(['alice', 'bob   ', ' carol', 'dave']);
    expect(summary.edgeSpaces).toEqual({ count: 2, lines: [2, 3] });
  });

  it('checks each line’s reference with the gate’s rule: over 200 characters (spaces at the ends aside) the line is invalid', async () => {
    const long = `R-${'8'.repeat(299)}`;
    const csv = `uid,ticket\nalice,T-1\nbob,${long}\ncarol, ${'c'.repeat(200)} \n`;
    const { uids, summary } = await parse(csv, { kind: 'csv', referenceColumn: 'ticket' });
    expect(uids).toEqual(['alice', 'carol']);
    expect(summary.invalid).toEqual([
      { line: 3, problem: { code: 'reference-too-long', length: 301, max: 200 }, reason: referenceProblemMessage({ code: 'reference-too-long', length: 301, max: 200 }), excerpt: `R-${'8'.repeat(78)}…` },
    ]);
    expect(summary.invalid[0]?.reason).toContain('The reference is 301 characters long; references are at most 200');
  });

  it('treats an empty cell in the uid column as an invalid line', async () => {
    const { uids, summary } = await parse('uid,ticket\n,T-1\nalice\n', { kind: 'csv' });
    expect(uids).toEqual(['alice']);
    expect(summary.invalid).toEqual([{ line: 2, problem: { code: 'empty' }, reason: uidProblemMessage({ code: 'empty' }), excerpt: '' }]);
  });
});

describe('guessKind', () => {
  it('follows the documented conservative rule', () => {
    expect(guessKind('a\tb\nc')).toBe('tsv');
    expect(guessKind('uid,ref\nalice,1')).toBe('csv');
    expect(guessKind('"User ID",ref\nalice,1')).toBe('csv');
    expect(guessKind('account,ref\nalice,1', 'account')).toBe('csv');
    expect(guessKind('Dupont, Jean\nalice')).toBe('list');
    expect(guessKind('uid\nalice')).toBe('list');
    expect(guessKind('E-mail,Account\nann,user-1', 'Acount')).toBe('csv');
    expect(guessKind('E-mail,Account\nann,user-1')).toBe('list');
    expect(guessKind('uid;référence\r\nuser-1;R-1')).toBe('csv');
    expect(guessKind('"User ID";ref\nalice;1')).toBe('csv');
    expect(guessKind('ref;account\nR-1;user-1', 'account')).toBe('csv');
    expect(guessKind('ref;account\nR-1;user-1')).toBe('list');
  });
});

describe('parseBatchInput: 100,000 lines', () => {
  it('streams a large CSV and a large list, counting items, duplicates and invalid lines', async () => {
    const total = 100_000;
    function* csvLines(): Generator<string> {
      yield 'uid,ticket\r\n';
      for (let index = 1; index < total; index += 1) {
        const uid = index % 1000 === 0 ? '..' : index % 500 === 0 ? `user-${index - 1}` : `user-${index}`;
        yield `"${uid}","T-${index}, batch"\r\n`;
      }
    }
    let count = 0;
    let lastLine = 0;
    const summary = await parseBatchInput(Readable.from(csvLines()), { kind: 'auto', referenceColumn: 'ticket' }, (item) => {
      count += 1;
      lastLine = item.line;
    });
    // 99,999 data lines: 99 are "..", 100 repeat the uid before them.
    expect(summary.kind).toBe('csv');
    expect(summary.invalidCount).toBe(99);
    expect(summary.duplicates).toBe(100);
    expect(summary.items).toBe(total - 1 - 99 - 100);
    expect(count).toBe(summary.items);
    expect(lastLine).toBe(total);

    function* listLines(): Generator<string> {
      for (let index = 0; index < total; index += 1) yield index % 4 === 0 ? 'same\n' : `\u0001bad-${index}\n`;
    }
    const list = await parseBatchInput(Readable.from(listLines()), { kind: 'list' }, () => undefined);
    expect(list.items).toBe(1);
    expect(list.duplicates).toBe(total / 4 - 1);
    expect(list.invalidCount).toBe((total * 3) / 4);
    expect(list.invalid).toHaveLength(MAX_LISTED_INVALID);
  }, 60_000); // a generous allowance on a shared machine; no timing is asserted

  it('reads the source only a bounded way ahead of the consumer (the text is never held whole)', async () => {
    for (const kind of ['csv', 'list'] as const) {
      let produced = 0;
      const lines = function* (): Generator<string> {
        if (kind === 'csv') yield 'uid,ticket\n';
        for (let index = 0; index < 100_000; index += 1) {
          produced += 1;
          yield kind === 'csv' ? `user-${index},T\n` : `user-${index}\n`;
        }
      };
      let producedAtItem20k = 0;
      await parseBatchInput(Readable.from(lines()), { kind: 'auto' }, (item) => {
        if (item.uid === 'user-20000') producedAtItem20k = produced;
      });
      expect(producedAtItem20k).toBeGreaterThan(20_000);
      expect(producedAtItem20k).toBeLessThan(40_000);
    }
  }, 60_000);
});

describe('parseBatchInput: over-long lines', () => {
  const CHUNK = 64 * 1024;
  /** A lazy file of `total` characters: `head`, then `filler` repeated; counts the chunks the parser asked for. */
  function lazyFile(head: string, filler: string, total: number) {
    const pulled = { chunks: 0 };
    async function* chunks(): AsyncGenerator<string> {
      const block = filler.repeat(Math.ceil(CHUNK / filler.length));
      yield head;
      for (let sent = head.length; sent < total; sent += block.length) {
        pulled.chunks += 1;
        yield block;
      }
    }
    return { source: chunks(), pulled };
  }
  // Enough to read the limit and one chunk more; far fewer than the file holds.
  const BOUND = Math.ceil(MAX_LINE_LENGTH / CHUNK) + 2;
  const TOTAL = 16 * 1024 * 1024;

  it('refuses a file without line breaks at its first over-long line, having read only that far', async () => {
    const { source, pulled } = lazyFile('alice\n', 'x', TOTAL);
    const refused = await refusal(source, { kind: 'auto' });
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.message).toContain('Line 2 is longer than 1,000,000 characters');
    expect(refused.message).toContain('Nothing was sent');
    expect(pulled.chunks).toBeLessThanOrEqual(BOUND);
  });

  it('refuses a CSV whose quote is never closed, naming the line it opened on, having read only that far', async () => {
    const { source, pulled } = lazyFile('uid,ticket\nalice,T-1\n"bob,T-2\n', 'carol,T-3\n', TOTAL);
    const refused = await refusal(source, { kind: 'auto' });
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.message).toContain('Line 3 is longer than 1,000,000 characters');
    expect(refused.message).toContain('A quote (") opened on line 3 is never closed');
    expect(pulled.chunks).toBeLessThanOrEqual(BOUND);
  });

  it('reads text given whole in slices too: the refusal comes the same way', async () => {
    const refused = await refusal(`uid\n${'y'.repeat(MAX_LINE_LENGTH + 1)}\nbob\n`, { kind: 'auto' });
    expect(refused.message).toContain('Line 2 is longer than 1,000,000 characters');
  });

  it('takes a line of exactly the limit (an invalid uid, listed as such) and refuses one character more', async () => {
    const { summary, uids } = await parse(`alice\n${'z'.repeat(MAX_LINE_LENGTH)}\nbob\n`);
    expect(uids).toEqual(['alice', 'bob']);
    expect(summary.invalid).toMatchObject([{ line: 2, problem: { code: 'too-long' } }]);
    const csv = await parse(`uid,notes\nalice,"${'t'.repeat(MAX_LINE_LENGTH - 8)}"\n`, { kind: 'csv' });
    expect(csv.uids).toEqual(['alice']);
    expect((await refusal(`uid,notes\nalice,"${'t'.repeat(MAX_LINE_LENGTH - 7)}"\n`, { kind: 'csv' })).message).toContain('Line 2 is longer');
  });
});

describe('csv parsing rules (as papaparse read them)', () => {
  it('keeps stray quotes, spaces after a closing quote, doubled quotes and an unclosed last quote', async () => {
    const csv = 'uid,ticket\n"ab"c",T-1\n"d" ,T-2\ne"f,T-3\n"g""h","T ""4"""\r\n"i\n';
    const { items } = await parse(csv, { kind: 'csv', referenceColumn: 'ticket' });
    expect(items).toEqual([
      { line: 2, uid: 'ab"c', reference: 'T-1' },
      { line: 3, uid: 'd', reference: 'T-2' },
      { line: 4, uid: 'e"f', reference: 'T-3' },
      { line: 5, uid: 'g"h', reference: 'T "4"' },
    ]);
  });
});

describe('parseBatchInput: semicolon CSV and rows read as a list', () => {
  // A CSV saved by a French Excel: semicolons (the comma is the decimal mark there), a BOM, CRLF line ends.
  const EXCEL_FR = readFileSync(fileURLToPath(new URL('../../tests/integration/fixtures/excel-fr.csv', import.meta.url)));

  it('reads the French Excel file as CSV with its columns: the header row is no uid', async () => {
    expect(EXCEL_FR.toString('utf8')).toBe('\uFEFFuid;référence\r\nuser-000070;DSR-1\r\nuser-000071;DSR-2\r\n');
    const { items, summary } = await parse(Readable.from([EXCEL_FR]));
    expect(summary).toMatchObject({ kind: 'csv', separator: 'semicolon', columns: ['uid', 'référence'], uidColumn: { index: 0, name: 'uid' }, items: 2, invalidCount: 0 });
    expect(items).toEqual([
      { line: 2, uid: 'user-000070' },
      { line: 3, uid: 'user-000071' },
    ]);
    const withReference = await parse(Readable.from([EXCEL_FR]), { kind: 'auto', referenceColumn: 'référence' });
    expect(withReference.items).toEqual([
      { line: 2, uid: 'user-000070', reference: 'DSR-1' },
      { line: 3, uid: 'user-000071', reference: 'DSR-2' },
    ]);
  });

  it('takes the separator the operator chose, and a semicolon file picked by column number', async () => {
    const rows = 'DSR-1;user-000070\r\nDSR-2;user-000071\r\n';
    const chosen = await parse(rows, { kind: 'auto', separator: 'semicolon', uidColumn: 1, referenceColumn: 0 });
    expect(chosen.summary).toMatchObject({ kind: 'csv', separator: 'semicolon' });
    expect(chosen.items).toEqual([
      { line: 1, uid: 'user-000070', reference: 'DSR-1' },
      { line: 2, uid: 'user-000071', reference: 'DSR-2' },
    ]);
    expect((await parse(rows, { kind: 'auto', uidColumn: 1 })).uids).toEqual(['user-000070', 'user-000071']);
    // A comma chosen for a semicolon file: one column, read as the operator said, its header row still no uid.
    expect((await parse('uid;x\nalice;1\n', { kind: 'auto', separator: 'comma' })).uids).toEqual(['alice;1']);
    // A French header names the uid column too.
    expect((await parse('Identifiant;Référence\nuser-000070;DSR-1\n')).uids).toEqual(['user-000070']);
  });

  it('refuses to read as a list lines that look like rows of columns, naming the separator and a line', async () => {
    for (const [text, separator, line] of [
      ['user-000070;DSR-1\r\nuser-000071;DSR-2\r\n', ';', 1],
      ['référence;compte\nDSR-1;user-000070\nDSR-2;user-000071\nuser-000072\n', ';', 1],
      ['user-000070,DSR-1\nuser-000071,DSR-2\n', ',', 1],
    ] as const) {
      const refused = await refusal(text, { kind: 'auto' });
      expect(refused.code).toBe('INVALID_INPUT');
      expect(refused.message).toContain(`hold a ${separator === ';' ? 'semicolon (;)' : 'comma (,)'}`);
      expect(refused.message).toContain(`line ${line}`);
      expect(refused.message).toContain('Nothing was sent');
    }
  });

  it('reads lines whole when the operator says each is one uid, without counting a header row as a uid', async () => {
    const { uids, summary } = await parse('uid;référence\r\nuser-000070;DSR-1\r\n', { kind: 'list' });
    expect(summary).toMatchObject({ kind: 'list', columns: ['uid;référence'] });
    expect(uids).toEqual(['user-000070;DSR-1']);
    // A few commas among many plain uids are uids with commas.
    expect((await parse('Dupont, Jean\nalice\nbob\n')).uids).toEqual(['Dupont, Jean', 'alice', 'bob']);
  });
});

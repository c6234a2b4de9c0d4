import { describe, expect, it } from 'vitest';
import { createOutput } from './output';
import { formatTable } from './table';
import { escapeInvisible, visibleEmail, visibleJson, visibleLines, visibleName, visibleText, visibleUid } from './visible-text';

const RETITLE = '\u001b]0;pwned\u0007';
const ERASE_AND_GO_UP = '\u001b[2K\u001b[1A';
const RIGHT_TO_LEFT = '\u202egnp.exe';
const C1_CSI = '\u009b31m';

/** Any character a terminal would obey rather than show. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function collect() {
  let stdout = '';
  let stderr = '';
  const out = createOutput({ stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { out, get stdout() { return stdout; }, get stderr() { return stderr; } };
}

describe('visible text (service data printed to a terminal)', () => {
  it('shows escape sequences, C1 controls, DEL and bidi controls as \\uXXXX instead of obeying them', () => {
    expect(visibleText(`Ann${RETITLE}`)).toBe('Ann\\u001b]0;pwned\\u0007');
    expect(visibleText(ERASE_AND_GO_UP)).toBe('\\u001b[2K\\u001b[1A');
    expect(visibleText(RIGHT_TO_LEFT)).toBe('\\u202egnp.exe');
    expect(visibleText(`${C1_CSI}\u007f\u2066x\u2069\u200e\u200f\u061c`)).toBe('\\u009b31m\\u007f\\u2066x\\u2069\\u200e\\u200f\\u061c');
    expect(visibleText('a\nb\rc\td')).toBe('a\\u000ab\\u000dc\\u0009d');
  });

  it('leaves ordinary text alone: accents, CJK, emoji, quotes', () => {
    for (const text of ['Zoë Ångström', '王小明', 'dév 👩‍💻', '“quoted” ‘x’', 'a b']) expect(visibleText(text)).toBe(text);
  });

  it('keeps the newlines of our own multi-line messages, nothing else', () => {
    expect(visibleLines(`line 1\nline 2 ${RETITLE}`)).toBe('line 1\nline 2 \\u001b]0;pwned\\u0007');
  });

  it('JSON stays valid and parses to the same value, with nothing a terminal obeys left raw', () => {
    const value = { fullName: `${RETITLE}${C1_CSI}\u007f${RIGHT_TO_LEFT}`, email: `x${ERASE_AND_GO_UP}@example.com` };
    const printed = visibleJson(JSON.stringify(value, null, 2));
    expect(JSON.parse(printed)).toEqual(value);
    expect(printed.replace(/\n/g, '')).not.toMatch(OBEYED);
  });
});

describe('names and e-mails (service data in a table cell)', () => {
  it('leave a readable name or e-mail as it is, spaces between words included', () => {
    for (const name of ['Zoë Ångström', 'Jean-Pierre de la Tour', '王小明', 'dév 👩‍💻']) expect(visibleName(name)).toBe(name);
    expect(visibleEmail('zoe.muller@example.org')).toBe('zoe.muller@example.org');
  });

  it('quote and escape whatever a reader could not see or the terminal would obey', () => {
    expect(visibleEmail('a\u200bb@example.org')).toBe('"a\\u200bb@example.org"');
    expect(visibleEmail('ann@example.org ')).toBe('"ann@example.org "');
    expect(visibleName('Admin\u202egpj.exe')).toBe('"Admin\\u202egpj.exe"');
    expect(visibleName(' Ann')).toBe('" Ann"');
    expect(visibleName('Ann\u00a0Lee')).toBe('"Ann\\u00a0Lee"');
    expect(visibleName('C:\\temp')).toBe('"C:\\\\temp"');
  });
});

describe('CLI output (tables, lines, notes, JSON)', () => {
  it('a table cell cannot retitle the terminal, erase rows or add a row', () => {
    const rows = [{ uid: `u1${ERASE_AND_GO_UP}`, name: `Ann${RETITLE}\nfake-uid  Fake Row` }];
    const table = formatTable(rows, [
      { title: 'UID', value: (r) => r.uid },
      { title: 'NAME', value: (r) => r.name, maxWidth: 200 },
    ]);
    expect(table.split('\n')).toHaveLength(3);
    expect(table).not.toMatch(OBEYED);
    expect(table).toContain('Ann\\u001b]0;pwned\\u0007\\u000afake-uid');
  });

  it('lines, notes and JSON written through the output never carry a raw control character', () => {
    const io = collect();
    io.out.line(`Anonymised user “${RETITLE}”.`);
    io.out.note(`SERVER_ERROR: The service said: “${ERASE_AND_GO_UP}${C1_CSI}”.`);
    io.out.json({ users: [{ fullName: `${RIGHT_TO_LEFT}\u007f` }] });
    expect(io.stdout.replace(/\n/g, '')).not.toMatch(OBEYED);
    expect(io.stderr.replace(/\n/g, '')).not.toMatch(OBEYED);
    expect(io.stderr).toContain('\\u001b[2K');
  });
});

describe('uids in the CLI’s text output', () => {
  it('a uid with spaces at an end is quoted, so the spaces show; invisible characters are escaped', () => {
    expect(visibleUid(' user-000490 ')).toBe('" user-000490 "');
    expect(visibleUid('dave smith')).toBe('"dave smith"');
    expect(visibleUid('alice\u00a0')).toBe('"alice\\u00a0"');
    expect(visibleUid('al\u200bice')).toBe('"al\\u200bice"');
    expect(visibleUid('\u202eexe.png')).toBe('"\\u202eexe.png"');
    expect(visibleUid('tag\u{e0041}')).toBe('"tag\\u{e0041}"');
    // The quoted form reads back as the uid (a JSON string, but for the astral escape).
    for (const uid of [' user-000490 ', 'alice\u00a0', 'say "hi" ', 'a\\b c']) expect(JSON.parse(visibleUid(uid))).toBe(uid);
  });

  it('leaves a uid every character of which shows as it is', () => {
    for (const uid of ['user-000490', 'alice@example.com', 'zoë', '王小明', 'dév-👩‍💻']) expect(visibleUid(uid)).toBe(uid);
  });

  it('in a table, " user-000490 " and "user-000490" cannot be confused', () => {
    const table = formatTable([{ uid: ' user-000490 ' }, { uid: 'user-000490' }], [{ title: 'UID', value: (r) => visibleUid(r.uid) }]);
    expect(table.split('\n').slice(2).map((line) => line.trimEnd())).toEqual(['" user-000490 "', 'user-000490']);
  });

  it('inside quotes, invisible characters are escaped and spaces stay', () => {
    expect(escapeInvisible(' a\u00a0b ')).toBe(' a\\u00a0b ');
  });
});

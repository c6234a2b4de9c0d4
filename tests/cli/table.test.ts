import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../cli/table';

interface Person {
  name: string;
  email: string;
}

const columns = [
  { title: 'NAME', value: (p: Person) => p.name, maxWidth: 12 },
  { title: 'EMAIL', value: (p: Person) => p.email },
];

/** The terminal column where the EMAIL cell starts on each line (what an operator sees as alignment). */
function emailColumns(table: string, people: Person[]): number[] {
  return table.split('\n').map((line, i) => {
    const email = i === 0 ? 'EMAIL' : i === 1 ? '-' : people[i - 2]!.email;
    const at = i === 1 ? line.lastIndexOf(' ') + 1 : line.indexOf(email);
    return stringWidth(line.slice(0, at));
  });
}

describe('the list table (cli/table.ts)', () => {
  it('lines up columns after East Asian, emoji-sequence and accented names', () => {
    const people: Person[] = [
      { name: 'Jean Dupont', email: 'jean@example.org' },
      { name: '山田太郎', email: 'yamada@example.jp' },
      { name: '👩‍👩‍👧 family', email: 'family@example.org' },
      { name: 'E\u0301mile ☕', email: 'emile@example.org' },
      { name: 'ｆｕｌｌ', email: 'full@example.org' },
    ];
    const table = formatTable(people, columns);
    expect(new Set(emailColumns(table, people)).size).toBe(1);
  });

  it('cuts a long wide name to its column without splitting a character, marked with …', () => {
    const people: Person[] = [
      { name: '山田太郎山田太郎山田太郎', email: 'a@example.jp' },
      { name: '👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧', email: 'b@example.org' },
      { name: 'short', email: 'c@example.org' },
    ];
    const table = formatTable(people, columns);
    const [, , yamada, family] = table.split('\n');
    expect(yamada).toMatch(/^山田太郎山… /);
    expect(family).toMatch(/^(👩‍👩‍👧){5}… /);
    expect(new Set(emailColumns(table, people)).size).toBe(1);
  });

  it('still shows control characters in a cell as escapes', () => {
    const table = formatTable([{ name: 'evil\u001b]0;pwned\u0007', email: 'x\u202e@example.org' }], [
      { title: 'NAME', value: (p: Person) => p.name, maxWidth: 40 },
      { title: 'EMAIL', value: (p: Person) => p.email },
    ]);
    expect(table).toContain('evil\\u001b]0;pwned\\u0007');
    expect(table).toContain('x\\u202e@example.org');
    // eslint-disable-next-line no-control-regex -- the point: none reaches the terminal
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });
});

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomicFrom } from './job-files';

describe('writeFileAtomicFrom', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'privacy-desk-atomic-from-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const tempFiles = () => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

  it('writes each piece as it comes: the text is never whole in memory, the file appears whole at the end', async () => {
    const path = join(dir, 'results.csv');
    const seenInTemp: string[] = [];
    async function* pieces() {
      for (let index = 0; index < 3; index += 1) {
        // Before piece N is made, pieces 0..N-1 are already in the temp file, and the file itself is not there yet.
        const [temp] = tempFiles();
        seenInTemp.push(temp ? readFileSync(join(dir, temp), 'utf8') : '');
        expect(existsSync(path)).toBe(false);
        yield `piece ${index}\n`;
      }
    }
    await writeFileAtomicFrom(path, dir, pieces(), (error) => error);
    expect(seenInTemp).toEqual(['', 'piece 0\n', 'piece 0\npiece 1\n']);
    expect(readFileSync(path, 'utf8')).toBe('piece 0\npiece 1\npiece 2\n');
    expect(tempFiles()).toEqual([]);
  });

  it('a failure of the pieces is thrown as it is; a failure of the file goes through writeFailed; no temp file stays', async () => {
    async function* failing() {
      yield 'a';
      throw new Error('could not read the journal');
    }
    await expect(writeFileAtomicFrom(join(dir, 'a.csv'), dir, failing(), () => new Error('mapped'))).rejects.toThrow('could not read the journal');
    mkdirSync(join(dir, 'b.csv'));
    async function* fine() {
      yield 'b';
    }
    await expect(writeFileAtomicFrom(join(dir, 'b.csv'), dir, fine(), () => new Error('mapped'))).rejects.toThrow('mapped');
    expect(tempFiles()).toEqual([]);
  });
});

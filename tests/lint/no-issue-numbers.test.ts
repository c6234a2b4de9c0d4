import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './import-graph';

// Comments, test names and docs say why, not which numbered issue, finding or ticket asked for it: those
// numbers live outside the repository, so a reader cannot follow them. Another project's issue named with
// its repository (electron/electron#43715) is fine: anyone can open it.

const WORDED = /\b(?:issues?|findings?|tickets?|bugs?|pull requests?|PRs?)\s+(?:#\s*)?\d+\b/i;
// A bare #12 (not a colour: CSS files and quoted hex are left alone, and owner/repo#12 is preceded by a name).
const BARE = /(?:^|[\s([,;])#\d{1,5}\b(?![0-9a-f])/;
const BINARY = /\.(?:png|jpe?g|gif|ico|icns|pdf|woff2?|ttf|gz|zip|tsbuildinfo)$/i;
const THIS_FILE = 'tests/lint/no-issue-numbers.test.ts';

function issueCitations(path: string, text: string): string[] {
  const found: string[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (WORDED.test(line) || (!path.endsWith('.css') && BARE.test(line))) found.push(`${path}:${index + 1}: ${line.trim().slice(0, 120)}`);
  }
  return found;
}

describe('no file cites an issue number the repository does not contain', () => {
  it('every tracked or new file, source, test, doc and style, says the reason instead', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((path) => path && path !== THIS_FILE && path !== 'package-lock.json' && !BINARY.test(path));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((path) => {
      let text: string;
      try {
        text = readFileSync(join(REPO_ROOT, path), 'utf8');
      } catch {
        return []; // listed but deleted meanwhile
      }
      return text.includes('\0') ? [] : issueCitations(path, text);
    });
    expect(found).toEqual([]);
  });

  it('catches the forms met in the sweep, and leaves colours, headings and other projects\' issues alone', () => {
    const cited = ['// Finding 1 of issue 9: stored credentials', ' * Issue 8, section 6: a batch', "describe('limits (finding 6)'", 'Goal (issue 10): a walk', 'fixed in #12', '(see #3)', 'ticket 4411', 'PR 7'];
    for (const line of cited) expect(issueCitations('x.ts', line), line).toHaveLength(1);
    const fine = ["fillColor('#333333')", 'color: #133029;', '| # | Promise |', '## Heading 2', 'electron/electron#43715', 'RFC 9110 §10.2.3', 'the issue of a token', '10 issues found'];
    for (const line of fine) expect(issueCitations('x.ts', line), line).toEqual([]);
    expect(issueCitations('x.css', '  --calm-soft: #133;')).toEqual([]);
  });
});

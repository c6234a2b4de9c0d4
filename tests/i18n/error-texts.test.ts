import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every error the window can meet carries a message id (shared/messages/), so the window words it in its
 * language: none is raised with an English sentence alone. Only the CLI (cli/), whose errors never reach
 * the window, and tests may. This reads every product source and lists each error built from English text:
 * `new PrivacyDeskError({ … message … })` or `invalidInput('…')` / `invalidInput(`…`)`.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['shared', 'core', 'handlers', 'app-runtime', 'web-host', 'electron', 'renderer'];
const SKIP = /(\.test\.tsx?$|[/\\]test[/\\]|[/\\]node_modules[/\\])/;

function sources(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(name) && !SKIP.test(path)) out.push(path);
  }
  return out;
}

/** The text between the parentheses that open at `start` (strings and template literals skipped over). */
function argumentsAt(text: string, start: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(start + 1, i);
  }
  return text.slice(start + 1);
}

/** The text at the first nesting level of an object literal: a `message` key inside msg('…', { message }) is a parameter, not the error's. */
function topLevel(args: string): string {
  let depth = 0;
  let kept = '';
  for (const c of args) {
    if (c === '(' || c === '[' || (c === '{' && depth > 0)) depth++;
    else if (c === ')' || c === ']' || (c === '}' && depth > 0)) depth--;
    if (depth === 0 || (depth === 1 && c === '{')) kept += c;
  }
  return kept;
}

export function englishOnlyErrors(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/new PrivacyDeskError\(|\binvalidInput\(/g)) {
    const args = argumentsAt(text, match.index + match[0].length - 1);
    const english = match[0].startsWith('new') ? /^\s*\{[\s\S]*(?<![.\w])message\s*[:,}]/.test(topLevel(args)) : /^\s*['"`]/.test(args);
    if (english) found.push(`line ${text.slice(0, match.index).split('\n').length}: ${match[0]}${args.replace(/\s+/g, ' ').slice(0, 90)}…`);
  }
  return found;
}

describe('errors the window can meet', () => {
  it('are found by the scan when built from English', () => {
    expect(englishOnlyErrors("throw invalidInput(`No ${x}.`); throw invalidInput(msg('a.b'));")).toHaveLength(1);
    expect(englishOnlyErrors("new PrivacyDeskError({ code: 'X', message: 'Gone.' }); new PrivacyDeskError({ code, outcome, message }, { cause });")).toHaveLength(2);
    expect(englishOnlyErrors("new PrivacyDeskError({ code: 'X', text: msg('a.b', { message: 'ok' }) }); new PrivacyDeskError(info); new PrivacyDeskError({ ...this.toInfo(), outcome })")).toEqual([]);
  });

  it('carry a message id: none is raised with an English sentence alone', () => {
    const problems = FOLDERS.flatMap((folder) => sources(join(ROOT, folder)).flatMap((path) => englishOnlyErrors(readFileSync(path, 'utf8')).map((found) => `${relative(ROOT, path)} ${found}`)));
    expect(problems, `Give each a message id (shared/messages/, French in renderer/i18n/messages-fr.ts):\n${problems.join('\n')}`).toEqual([]);
  });
});

import { hasInvisible, uidParts } from '../shared/invisible-characters';

/**
 * Text from the service (names, e-mails, uids, its error descriptions) is
 * printed to a terminal, which obeys control characters: ESC]0;…BEL retitles
 * the window, ESC[2K ESC[1A erases and fakes rows, U+202E reverses what
 * follows. Everything the CLI prints goes through these helpers, which show
 * such characters as \u001b-style escapes instead of letting the terminal obey them.
 */

// C0 controls, DEL, C1 controls, and the bidirectional controls (embeddings,
// overrides, isolates, the LTR/RTL and Arabic letter marks).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// What JSON.stringify leaves as it is (its own indentation newlines must stay).
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeCodeUnit(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One field (a table cell, a quoted value): every control character, newlines included, made visible. */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, escapeCodeUnit);
}

/** A message of our own that may span lines: its newlines stay, every other control character is made visible. */
export function visibleLines(text: string): string {
  return text.replace(UNSAFE_EXCEPT_NEWLINE, escapeCodeUnit);
}

/**
 * JSON for a terminal: JSON.stringify already escapes U+0000–U+001F, but not DEL,
 * the C1 controls or the bidirectional controls. Escaping them as \uXXXX keeps the
 * document valid and its parsed value identical.
 */
export function visibleJson(serialized: string): string {
  return serialized.replace(UNSAFE_IN_JSON, escapeCodeUnit);
}

/**
 * Inside quotes: a value with every character a reader cannot see written as an escape (\u00a0,
 * \u200b, \u202e…) — plain spaces stay, the quotes around show them. Control characters as visibleText.
 */
export function escapeInvisible(text: string): string {
  return uidParts(text)
    .map((part) => (part.kind === 'text' ? visibleText(part.text) : part.char === ' ' ? ' ' : escapeCodePoint(part.char)))
    .join('');
}

/**
 * A uid for a terminal: as it is when every character of it can be seen; otherwise quoted, so spaces at
 * either end show, with each invisible character escaped: " user-000490 ", "alice\u00a0". The quoted
 * form reads as a JSON string (quotes and backslashes inside are escaped) and states the uid exactly.
 * --json output keeps the uid itself.
 */
export function visibleUid(uid: string): string {
  return !hasInvisible(uid) && !QUOTE_NEEDED.test(uid) ? visibleText(uid) : quotedExactly(uid);
}

const QUOTE_NEEDED = /^"|\\/;

/** The quoted form: reads as a JSON string, every invisible character escaped. */
function quotedExactly(text: string): string {
  return `"${escapeInvisible(text.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}

/**
 * A name for a table cell: as it is when every character of it can be seen (spaces between words are plain
 * spaces); otherwise quoted and escaped as a uid is, so "Admin\u202egpj.exe" neither reorders the line nor
 * hides a zero-width character.
 */
export function visibleName(name: string): string {
  const hidden = name !== name.trim() || uidParts(name).some((part) => part.kind === 'mark' && part.char !== ' ');
  return hidden || QUOTE_NEEDED.test(name) ? quotedExactly(name) : visibleText(name);
}

/** An e-mail for a table cell: no character of it may go unseen, so "a\u200bb@example.org" never reads as ab@example.org. */
export function visibleEmail(email: string): string {
  return visibleUid(email);
}

function escapeCodePoint(char: string): string {
  const code = char.codePointAt(0) as number;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * JSON from outside (the service's answers, a pasted token, a line of the audit trail) parsed with a bound
 * on its nesting. JSON.parse itself copes with any depth, but everything that walks the value afterwards
 * recursively — JSON.stringify when the web host or the CLI prints it, the audit chain's canonical form —
 * overflows the stack on a few thousand levels. No document Privacy Desk reads needs more than a handful,
 * so anything deeper is refused as unreadable. The depth is checked on the parsed value (JSON.parse is iterative,
 * and the body's size is bounded): a walk of its objects costs a tenth of a pass over every character of the
 * text, which every users page paid.
 */
export const MAX_JSON_DEPTH = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: string };

/** The problem in words, for messages: "nested more than 64 levels deep". */
export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;

/** Parses `text` unless it is not JSON or nests arrays and objects deeper than `maxDepth`. */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): BoundedJson {
  const tooDeep = (): BoundedJson => ({ ok: false, problem: maxDepth === MAX_JSON_DEPTH ? TOO_DEEP : `nested more than ${maxDepth} levels deep` });
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // Too deep is said before "not JSON", whichever the text also is.
    return nestingExceeds(text, maxDepth) ? tooDeep() : { ok: false, problem: 'not JSON' };
  }
  return depthExceeds(value, maxDepth) ? tooDeep() : { ok: true, value };
}

/** The parsed value's nesting, with a stack of its own (a recursive walk would overflow on what it must refuse). */
function depthExceeds(value: unknown, maxDepth: number): boolean {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = (depths.pop() as number) + 1;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth) return true;
    // Parsed JSON: plain arrays and objects with no inherited enumerable keys.
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child !== 'object' || child === null) continue;
      nodes.push(child);
      depths.push(depth);
    }
  }
  return false;
}

/** One linear pass: brackets outside strings, with the escapes inside them skipped. */
function nestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

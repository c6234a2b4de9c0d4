import { invalidInput } from '../shared/errors';

/** A whole number from an option, refused with a clear message (exit 2) before anything is sent. */
export function parseWholeNumber(value: string, option: string, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}): number {
  if (!/^\d+$/.test(value.trim())) throw invalidInput(`${option} must be a whole number (got "${value}").`);
  const parsed = Number(value.trim());
  if (parsed < min || parsed > max) {
    // No upper bound worth naming: "between 1 and 9007199254740991" reads as a riddle.
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `between ${min} and ${max}`;
    throw invalidInput(`${option} must be ${range} (got ${parsed}).`);
  }
  return parsed;
}

/** `--claim key=value`: the value is JSON when it parses (numbers, booleans, objects), otherwise the text itself. */
export function parseClaim(text: string): [string, unknown] {
  const at = text.indexOf('=');
  if (at <= 0) throw invalidInput(`--claim takes key=value (got "${text}"), e.g. --claim sid=abc or --claim 'roles=["a"]'.`);
  const key = text.slice(0, at);
  const raw = text.slice(at + 1);
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}

import type { i18n as I18n } from 'i18next';
import { errorText, type ErrorInfo } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import { paramsSchemaOf } from '../../shared/messages';
import { formatNumber } from './format';

const MAX_NESTING = 6;

type LooseT = (key: string, options: Record<string, unknown>) => string;

/**
 * A message from the core in the window's language (i18next's "messages" namespace, renderer/i18n/index.ts).
 * Undefined when this window does not know the id or its parameters do not fit it: the caller then
 * says what the error's code always means instead of guessing. Parameters are data (shown as they are),
 * numbers (written the language's way) or phrases (worded first, in the same language).
 */
export function wordMessage(i18n: I18n, text: MessageText, depth = 0): string | undefined {
  const schema = paramsSchemaOf(text.id);
  if (!schema || depth > MAX_NESTING || !schema.safeParse(text.params ?? {}).success) return undefined;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.params ?? {})) {
    if (typeof value === 'object') {
      const worded = wordMessage(i18n, value, depth + 1);
      if (worded === undefined) return undefined;
      values[name] = worded;
    } else {
      values[name] = typeof value === 'number' && name !== 'count' ? formatNumber(value, i18n.language) : value;
    }
  }
  // `count` stays a number: i18next chooses the plural form from it, and writes it with its number format (index.ts).
  return (i18n.t as unknown as LooseT)(text.id, { ns: 'messages', ...values });
}

/** What an error says, in the window's language: its own message, else what its code always means. */
export function wordError(i18n: I18n, error: Pick<ErrorInfo, 'code' | 'text'>): string {
  return (error.text && wordMessage(i18n, error.text)) ?? wordMessage(i18n, errorText({ code: error.code }))!;
}

import { z } from 'zod';

/**
 * A sentence Privacy Desk says to a person, as data: a message id from the catalogue (shared/messages/)
 * and its parameters. The core words it in English for the CLI (wordInEnglish); the window words the
 * same id in its own language (renderer/i18n/word-message.ts). Nothing else is ever shown for it.
 */
export interface MessageText {
  id: string;
  params?: Record<string, MessageParam> | undefined;
}

/**
 * A value put into a message: data shown exactly as it is (a uid, a host, a file path), a number
 * (written the reader's way), or another message (a phrase such as what was being done).
 */
export type MessageParam = string | number | MessageText;

const MAX_NESTING = 6;

export const messageParamSchema: z.ZodType<MessageParam> = z.lazy(() => z.union([z.string(), z.number(), messageTextSchema]));

/** The shape of a message as it crosses the bridge; whether its id and parameters fit the catalogue is checked when it is worded. */
export const messageTextSchema: z.ZodType<MessageText> = z.object({
  id: z.string().min(1).max(120),
  params: z.record(z.string(), messageParamSchema).optional(),
});

/** What a message's parameters may be, by kind (see MessageParam). */
export const param = {
  /** Data shown as it is: never translated. */
  text: z.string(),
  /** A number, written the reader's way (1,234 / 1 234). */
  count: z.number(),
  /** Another message, worded in the same language. */
  phrase: messageTextSchema,
  /** Data when it is known, else a phrase ("its old address"). */
  textOrPhrase: messageParamSchema,
} as const;

/** One wording, or one per plural form (chosen by the `count` parameter). */
export type Wording = string | { one: string; other: string };

export interface MessageEntry<S extends z.ZodRawShape = z.ZodRawShape> {
  en: Wording;
  params: S;
}

/** A catalogue entry: its English wording and its parameters (each of a `param` kind). */
export function message<const S extends z.ZodRawShape = Record<never, never>>(en: Wording, params?: S): MessageEntry<S> {
  return { en, params: params ?? ({} as S) };
}

/** Every `{{name}}` a wording uses. */
export function placeholders(wording: Wording): string[] {
  const texts = typeof wording === 'string' ? [wording] : [wording.one, wording.other];
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]!)))];
}

export function fillPlaceholders(template: string, valueOf: (name: string) => string): string {
  return template.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => valueOf(name));
}

/** The wording for these parameters: a plural form is chosen by `count`, as i18next does. */
export function pickWording(wording: Wording, params: Record<string, MessageParam> | undefined, language: string): string {
  if (typeof wording === 'string') return wording;
  const count = params?.count;
  return typeof count === 'number' && new Intl.PluralRules(language).select(count) === 'one' ? wording.one : wording.other;
}

/** Whether a message's parameters are data of the right kinds (nesting bounded: a message is never deeper than a few phrases). */
export function isMessageText(value: unknown, depth = 0): value is MessageText {
  if (depth > MAX_NESTING || typeof value !== 'object' || value === null) return false;
  return messageTextSchema.safeParse(value).success;
}

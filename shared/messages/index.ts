import { z } from 'zod';
import { fillPlaceholders, pickWording, type MessageParam, type MessageText, type Wording } from '../message-text';
import { ANSWER_PACK_MESSAGES } from './answer-pack';
import { AUDIT_MESSAGES } from './audit';
import { BATCH_MESSAGES } from './batch';
import { BATCH_RETRY_MESSAGES } from './batch-retry';
import { CODE_MESSAGES } from './codes';
import { LOCAL_MESSAGES } from './local';
import { LOGOUT_CONFORMANCE_MESSAGES } from './logout-conformance';
import { PHRASE_MESSAGES } from './phrases';
import { RECONCILE_MESSAGES } from './reconcile';
import { REGISTER_IMPORT_MESSAGES } from './register-import';
import { REQUEST_MESSAGES } from './requests';
import { SERVICE_MESSAGES } from './service';
import { TEAM_MESSAGES } from './team';
import { TEAM_REGISTER_MESSAGES } from './team-register';
import { TEAM_MODE_MESSAGES } from './team-mode';
import { TOKEN_MESSAGES } from './token';

/**
 * The one catalogue of what Privacy Desk says to a person outside the window's own labels: every
 * message id, its typed parameters and its English wording. The window's other languages word the
 * same ids (renderer/i18n/messages-fr.ts); a test walks every id in every language.
 */
export const MESSAGES = {
  ...CODE_MESSAGES,
  ...PHRASE_MESSAGES,
  ...SERVICE_MESSAGES,
  ...TOKEN_MESSAGES,
  ...LOGOUT_CONFORMANCE_MESSAGES,
  ...LOCAL_MESSAGES,
  ...BATCH_MESSAGES,
  ...BATCH_RETRY_MESSAGES,
  ...AUDIT_MESSAGES,
  ...REQUEST_MESSAGES,
  ...ANSWER_PACK_MESSAGES,
  ...TEAM_MESSAGES,
  ...TEAM_REGISTER_MESSAGES,
  ...TEAM_MODE_MESSAGES,
  ...REGISTER_IMPORT_MESSAGES,
  ...RECONCILE_MESSAGES,
} as const;

export type MessageId = keyof typeof MESSAGES;
type ShapeOf<I extends MessageId> = (typeof MESSAGES)[I]['params'];
export type ParamsOf<I extends MessageId> = z.input<z.ZodObject<ShapeOf<I>>>;

/** A language's wording of every message (renderer/i18n/messages-<language>.ts). */
export type MessageWordings = { readonly [I in MessageId]: Wording };

export function isMessageId(id: string): id is MessageId {
  return Object.hasOwn(MESSAGES, id);
}

/** The schema a message's parameters must satisfy, or undefined for an id this catalogue does not have. */
export function paramsSchemaOf(id: string): z.ZodType<Record<string, MessageParam>> | undefined {
  return isMessageId(id) ? (z.strictObject(MESSAGES[id].params) as z.ZodType<Record<string, MessageParam>>) : undefined;
}

/** A message with its parameters, checked against the catalogue by the compiler. */
export function msg<I extends MessageId>(id: I, ...params: keyof ShapeOf<I> extends never ? [] : [ParamsOf<I>]): MessageText {
  const [given] = params;
  return given === undefined ? { id } : { id, params: given as Record<string, MessageParam> };
}

const MAX_NESTING = 6;

/** The message in English, as the CLI prints it; an id this catalogue does not have is shown as the id itself. */
export function wordInEnglish(text: MessageText, depth = 0): string {
  if (!isMessageId(text.id) || depth > MAX_NESTING) return text.id;
  const template = pickWording(MESSAGES[text.id].en, text.params, 'en');
  return fillPlaceholders(template, (name) => {
    const value = text.params?.[name];
    if (value === undefined) return '';
    if (typeof value === 'object') return wordInEnglish(value, depth + 1);
    // Numbers as English writes them (1,000,000), as the window's English does.
    return typeof value === 'number' ? value.toLocaleString('en-US') : value;
  });
}

/** A duration as a phrase: seconds under two minutes, minutes under two hours, hours under two days, then days. */
export function durationText(totalSeconds: number): MessageText {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 120) return msg('duration.seconds', { count: seconds });
  if (seconds < 7200) return msg('duration.minutes', { count: Math.round(seconds / 60) });
  if (seconds < 172_800) return msg('duration.hours', { count: Math.round(seconds / 3600) });
  return msg('duration.days', { count: Math.round(seconds / 86_400) });
}

/** A size in KB, or in MB (one decimal) from one megabyte. */
export function sizeText(bytes: number): MessageText {
  return bytes >= 1024 * 1024 ? msg('size.megabytes', { count: Math.round((bytes / (1024 * 1024)) * 10) / 10 }) : msg('size.kilobytes', { count: Math.round(bytes / 1024) });
}

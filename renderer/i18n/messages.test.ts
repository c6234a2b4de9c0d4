import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/errors';
import { param, placeholders, type MessageParam, type MessageText, type Wording } from '../../shared/message-text';
import { MESSAGES, isMessageId, wordInEnglish, type MessageId } from '../../shared/messages';
import { frenchTypographyProblems } from './french-typography';
import { createI18n, messagesEn } from './index';
import { messagesFr } from './messages-fr';
import { wordError, wordMessage } from './word-message';

/**
 * Every message the core can send the window, walked in every language: worded, with every parameter
 * used, French typography, and no English left in French. The compiler already checks that French has
 * every id (MessageWordings); this checks what it cannot.
 */

const LANGUAGES = { en: messagesEn, fr: messagesFr } as const;
const IDS = Object.keys(MESSAGES) as MessageId[];

/** Words that are English and never French: one of them in a French message is a sentence left untranslated. */
const ENGLISH_ONLY = /(?<!\p{L})(the|and|not|was|were|with|this|that|your|you|could|would|should|check|again|is|are|to|of|in|it|be|been|has|have|no|from|for|by|than|when|which|there|what|nothing|will|may|must|only|each|every|try|enter)(?!\p{L})/iu;

/** The prose of a wording: placeholders, quoted names («…», “…”), commands and addresses taken out. */
function prose(text: string): string {
  return text
    .replace(/{{\s*\w+\s*}}/g, ' ')
    .replace(/«[^»]*»|“[^”]*”|"[^"]*"/g, ' ')
    .replace(/\b(privacy-desk|npm|npx|sudo|dbus-run-session|token verify|batch list|profiles list|start-fresh)\b[^).,;]*/gi, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
}

function forms(wording: Wording): string[] {
  return typeof wording === 'string' ? [wording] : [wording.one, wording.other];
}

/** Parameters of the right kinds for a message, each phrase a real one. */
function sampleParams(id: MessageId): Record<string, MessageParam> {
  const shape = MESSAGES[id].params as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(shape).map(([name, kind]) => {
      if (kind === param.count) return [name, name === 'count' ? 2 : 1234];
      if (kind === param.phrase || kind === param.textOrPhrase) return [name, { id: 'duration.seconds', params: { count: 3 } } satisfies MessageText];
      return [name, `<${name}>`];
    }),
  );
}

describe('the message catalogue', () => {
  it('has a wording for every error code, true of any error with that code, in every language', () => {
    for (const code of ERROR_CODES) {
      expect(isMessageId(`code.${code}`), code).toBe(true);
      for (const language of Object.keys(LANGUAGES)) {
        const worded = wordError(createI18n(language as 'en' | 'fr'), { code });
        expect(worded.length, `${language} ${code}`).toBeGreaterThan(10);
      }
    }
  });

  it.each(Object.keys(LANGUAGES))('words every message in %s, every parameter used and no other', (language) => {
    const wordings = LANGUAGES[language as keyof typeof LANGUAGES];
    for (const id of IDS) {
      const expected = Object.keys(MESSAGES[id].params).sort();
      const wording = wordings[id];
      for (const form of forms(wording)) {
        expect(form.trim(), `${language} ${id}`).not.toBe('');
        // The singular may say "another list" rather than "1 list": only it may leave the count out.
        const used = new Set(placeholders(form));
        if (typeof wording !== 'string' && form === wording.one) used.add('count');
        expect([...used].sort(), `${language} ${id}: {{parameters}}`).toEqual(expected);
      }
      if (typeof MESSAGES[id].en !== 'string') expect(expected, `${id}: a plural wording needs a count`).toContain('count');
    }
  });

  it.each(Object.keys(LANGUAGES))('gives i18next every message in %s: worded, nothing left unfilled', (language) => {
    const i18n = createI18n(language as 'en' | 'fr');
    for (const id of IDS) {
      const text: MessageText = { id, params: sampleParams(id) };
      const worded = wordMessage(i18n, text);
      expect(worded, `${language} ${id}`).toBeDefined();
      expect(worded, `${language} ${id}`).not.toMatch(/{{|}}|^messages|^[a-z]+\.[A-Za-z.-]+$/);
      // The window's English is the CLI's English.
      if (language === 'en') expect(worded, id).toBe(wordInEnglish(text));
    }
  });

  it('picks the plural form in each language, a million included', () => {
    expect(wordMessage(createI18n('fr'), { id: 'duration.days', params: { count: 1 } })).toBe('1 jour');
    expect(wordMessage(createI18n('fr'), { id: 'duration.days', params: { count: 1_000_000 } })).toBe('1\u202f000\u202f000 jours');
    expect(wordMessage(createI18n('en'), { id: 'duration.days', params: { count: 1106 } })).toBe('1,106 days');
    expect(wordMessage(createI18n('en'), { id: 'duration.days', params: { count: 1 } })).toBe('1 day');
  });

  it('leaves no English in French', () => {
    const left = IDS.flatMap((id) =>
      forms(messagesFr[id])
        .filter((form) => ENGLISH_ONLY.test(prose(form)) || (forms(MESSAGES[id].en).includes(form) && /[a-z]{4}/i.test(prose(form))))
        .map((form) => `${id}: ${form}`),
    );
    expect(left, left.join('\n')).toEqual([]);
  });

  it('writes French with U+00A0 before : ; ? ! and inside « »', () => {
    const problems = IDS.flatMap((id) => forms(messagesFr[id]).flatMap((form) => frenchTypographyProblems(form).map((problem) => `${id}: ${problem}`)));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('shows data as it is: a uid that looks like a placeholder or a nesting is not expanded', () => {
    const i18n = createI18n('fr');
    const worded = wordMessage(i18n, { id: 'sandbox.noSuchUser', params: { uid: '{{uid}} $t(app.name) <b>' } });
    expect(worded).toContain('«\u00a0{{uid}} $t(app.name) <b>\u00a0»');
  });

  it('falls back to what the code means when the id or its parameters are unknown to the window', () => {
    const i18n = createI18n('fr');
    expect(wordMessage(i18n, { id: 'http.timeout', params: { host: 'h' } })).toBeUndefined();
    expect(wordMessage(i18n, { id: 'no.such.message' })).toBeUndefined();
    expect(wordError(i18n, { code: 'TIMEOUT', text: { id: 'no.such.message' } })).toBe(messagesFr['code.TIMEOUT']);
  });
});

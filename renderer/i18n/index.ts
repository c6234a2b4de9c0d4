import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MESSAGES, type MessageWordings } from '../../shared/messages';
import type { Wording } from '../../shared/message-text';
import { en } from './en';
import { fr } from './fr';
import { messagesFr } from './messages-fr';
import type { Language } from '../state/ui-store';

/** The catalogue's English, as the window reads it: the same words the CLI prints. */
export const messagesEn = Object.fromEntries(Object.entries(MESSAGES).map(([id, entry]) => [id, entry.en])) as unknown as MessageWordings;

/**
 * A language's messages as an i18next namespace: "http.timeout" under http → timeout, and a plural
 * wording as timeout_one / timeout_many / timeout_other, so i18next picks the form from `count` in that language.
 */
export function messagesNamespace(wordings: MessageWordings): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [id, wording] of Object.entries(wordings) as [string, Wording][]) {
    const path = id.split('.');
    const leaf = path.pop()!;
    let node = tree;
    for (const part of path) node = (node[part] ??= {}) as Record<string, unknown>;
    if (typeof wording === 'string') node[leaf] = countAsNumber(wording);
    // French also has a 'many' form (a million and more): it reads like 'other'.
    else Object.assign(node, { [`${leaf}_one`]: countAsNumber(wording.one), [`${leaf}_many`]: countAsNumber(wording.other), [`${leaf}_other`]: countAsNumber(wording.other) });
  }
  return tree;
}

/** `count` reaches i18next as a number (it picks the plural form from it): written the language's way by its number format. */
function countAsNumber(template: string): string {
  return template.replace(/{{\s*count\s*}}/g, '{{count, number}}');
}

export const resources = {
  en: { translation: en, messages: messagesNamespace(messagesEn) },
  fr: { translation: fr, messages: messagesNamespace(messagesFr) },
} as const;

/** One i18next instance per app (and per test), initialised synchronously from bundled strings. */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'fr'],
    ns: ['translation', 'messages'],
    defaultNS: 'translation',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes what it renders.
    returnNull: false,
  });
  return instance;
}

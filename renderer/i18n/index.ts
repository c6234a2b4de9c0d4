import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { fr } from './fr';
import type { Language } from '../state/ui-store';

export const resources = { en: { translation: en }, fr: { translation: fr } } as const;

/** One i18next instance per app (and per test), initialised synchronously from bundled strings. */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'fr'],
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes what it renders.
    returnNull: false,
  });
  return instance;
}

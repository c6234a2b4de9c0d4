import 'i18next';
import type { en } from './en';

// Typed keys: a t('…') with a key missing from en.ts is a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

import type { TFunction } from 'i18next';
import { formatDateTime, formatNumber } from '../../i18n/format';

const DATE_LIKE_KEY = /(_at|_activity|date|_on)$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A field value as words: dates localised, numbers grouped, absent values said out loud. */
export function formatFieldValue(path: string, value: unknown, t: TFunction, language: string): string {
  if (value === null || value === undefined) return t('detail.nullValue');
  if (value === '') return t('detail.emptyValue');
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  if (typeof value === 'number') return formatNumber(value, language);
  if (Array.isArray(value)) return value.length === 0 ? t('detail.listEmpty') : value.map(String).join(', ');
  if (typeof value === 'object') return Object.keys(value).length === 0 ? t('detail.emptyValue') : String(value);
  const text = String(value);
  if (DATE_LIKE_KEY.test(path) && ISO_DATE.test(text)) return formatDateTime(text, language);
  return text;
}

// Building a formatter costs far more than using one: a table drawing thousands of dates keeps one per style.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language} ${options.dateStyle ?? ''} ${options.timeStyle ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(language, options)));
  return format;
}

/** Locale-aware formatting; an unparseable date is shown as sent rather than hidden. */
export function formatDate(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat(language, { dateStyle: 'medium' }).format(date);
}

export function formatDateTime(value: string | number | Date | null | undefined, language: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

export function formatTime(value: Date, language: string): string {
  return dateFormat(language, { timeStyle: 'medium' }).format(value);
}

export function formatNumber(value: number | null | undefined, language: string): string {
  if (value === null || value === undefined) return '';
  return new Intl.NumberFormat(language).format(value);
}

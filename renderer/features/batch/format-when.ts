/**
 * Short dates for the batch tables, so that a row reads on one line at 1024 px: a job's items are
 * mostly recorded on the day it started, so those show the time alone (the day is in the job's heading).
 */
export function formatRecordedAt(value: string, language: string, dayOf?: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const day = dayOf ? new Date(dayOf) : undefined;
  if (day && !Number.isNaN(day.getTime()) && day.toDateString() === date.toDateString()) {
    return new Intl.DateTimeFormat(language, { timeStyle: 'medium' }).format(date);
  }
  return formatShortDateTime(value, language);
}

/** Day and minute in the locale's short form, e.g. 11/22/26, 8:19 PM or 22/11/2026 20:19. */
export function formatShortDateTime(value: string, language: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/** Since when something holds: the time alone when it began today, else the day and the time. */
export function formatSince(value: string, language: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  if (date.toDateString() === now.toDateString()) return new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(date);
  return formatShortDateTime(value, language);
}

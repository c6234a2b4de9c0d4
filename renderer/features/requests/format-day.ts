const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day (YYYY-MM-DD, already in the register's time zone) in the window's language. Read at noon UTC and
 * written in UTC, so no time zone of this computer can move it to the day before or after.
 */
export function formatDay(day: string | undefined, language: string): string {
  if (!day) return '';
  let format = dayFormats.get(language);
  if (!format) dayFormats.set(language, (format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' })));
  const date = new Date(`${day}T12:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : format.format(date);
}

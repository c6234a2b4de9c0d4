import type { TFunction } from 'i18next';

/** "45 s", "3 min 05 s", "2 h 10 min": time left, rounded up to the second. */
export function formatDuration(seconds: number, t: TFunction): string {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole < 60) return t('batch.duration.seconds', { s: whole });
  if (whole < 3600) return t('batch.duration.minutes', { m: Math.floor(whole / 60), s: String(whole % 60).padStart(2, '0') });
  return t('batch.duration.hours', { h: Math.floor(whole / 3600), m: String(Math.floor((whole % 3600) / 60)).padStart(2, '0') });
}

import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** This window's clock, read again every `intervalMs`, so ages shown on screen keep up. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export type AgeForm = 'sentence' | 'fragment' | 'bare';

const AGE_KEYS = { sentence: 'search.listAge', fragment: 'pagination.readAge', bare: 'pagination.age' } as const;

/**
 * How old a list is, in words: a sentence ("List read 4 min ago."), a fragment for a line of facts
 * ("read 4 min ago"), or the age alone ("4 min ago").
 */
export function listAgeText(readAt: number, now: number, t: TFunction, form: AgeForm = 'sentence'): string {
  const keys = AGE_KEYS[form];
  const minutes = Math.max(0, Math.floor((now - readAt) / 60_000));
  if (minutes < 1) return t(`${keys}.justNow`);
  return minutes < 60 ? t(`${keys}.minutes`, { count: minutes }) : t(`${keys}.hours`, { count: Math.floor(minutes / 60) });
}

/** When a list was read, as a time of day ("3:04 PM", "15:04"). */
export function readTime(readAt: number, language: string): string {
  return new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(readAt);
}

/** "List read 4 min ago": how old the list an answer comes from is, kept up to date on screen; the exact time on hover. */
export function ListAge({ readAt, className = '', form = 'sentence' }: { readAt: number; className?: string; form?: AgeForm }) {
  const { t } = useTranslation();
  const now = useNow();
  return (
    <span className={`list-age ${className}`.trim()} title={new Date(readAt).toLocaleString()}>
      {listAgeText(readAt, now, t, form)}
    </span>
  );
}

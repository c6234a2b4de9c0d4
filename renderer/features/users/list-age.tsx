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

/** "List read 4 min ago": how old the list of users an answer comes from is, kept up to date on screen. */
export function ListAge({ readAt, className = '' }: { readAt: number; className?: string }) {
  const { t } = useTranslation();
  const now = useNow();
  const minutes = Math.max(0, Math.floor((now - readAt) / 60_000));
  const text = minutes < 1 ? t('search.listAge.justNow') : minutes < 60 ? t('search.listAge.minutes', { count: minutes }) : t('search.listAge.hours', { count: Math.floor(minutes / 60) });
  return (
    <span className={`list-age ${className}`.trim()} title={new Date(readAt).toLocaleString()}>
      {text}
    </span>
  );
}

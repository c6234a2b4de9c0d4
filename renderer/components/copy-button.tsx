import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy-button">
      <button type="button" className="button button--small" onClick={() => void copy()} disabled={!text}>
        {label}
      </button>
      <span role="status" className="copy-button__status">
        {state === 'copied' ? `✓ ${t('common.copied')}` : state === 'failed' ? t('common.copyFailed') : ''}
      </span>
    </span>
  );
}

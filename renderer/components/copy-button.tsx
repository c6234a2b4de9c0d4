import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copies `text` exactly: the Clipboard API, or the selection-and-copy fallback where the API is refused. */
export async function copyText(text: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard API');
    await navigator.clipboard.writeText(text);
  } catch (error) {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = typeof document.execCommand === 'function' && document.execCommand('copy');
    area.remove();
    if (!copied) throw error;
  }
}

export function CopyButton({ text, label, accessibleLabel }: { text: string; label: string; accessibleLabel?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await copyText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy-button">
      <button type="button" className="button button--small" onClick={() => void copy()} disabled={!text} {...(accessibleLabel ? { 'aria-label': accessibleLabel } : {})}>
        {label}
      </button>
      <span role="status" className="copy-button__status">
        {state === 'copied' ? `✓ ${t('common.copied')}` : state === 'failed' ? t('common.copyFailed') : ''}
      </span>
    </span>
  );
}

/** Copies the real uid (its spaces and invisible characters, never the marks VisibleUid draws for them). */
export function CopyUidButton({ uid }: { uid: string }) {
  const { t } = useTranslation();
  return <CopyButton text={uid} label={t('uid.copy')} />;
}

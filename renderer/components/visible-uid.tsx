import { useTranslation } from 'react-i18next';

/**
 * A uid exactly as it is, in monospace, with every space drawn as a faint ␣
 * so " alice" and "alice" cannot be confused. Screen readers get the plain uid.
 */
export function VisibleUid({ uid, className = '' }: { uid: string; className?: string }) {
  const parts = uid.split(/( )/);
  return (
    <span className={`uid-box ${className}`}>
      <span className="visually-hidden">{uid}</span>
      <span aria-hidden="true">
        {parts.map((part, index) =>
          part === ' ' ? (
            <span key={index} className="uid-box__space">␣</span>
          ) : (
            <span key={index}>{part}</span>
          ),
        )}
      </span>
    </span>
  );
}

/** The spoken and written warnings that go with a uid whose spaces matter. */
export function UidHints({ uid }: { uid: string }) {
  const { t } = useTranslation();
  const hints: string[] = [];
  if (uid.includes(' ')) hints.push(t('uid.containsSpaces'));
  if (uid !== uid.trim()) hints.push(t('uid.edgeSpaces'));
  hints.push(t('uid.length', { count: [...uid].length }));
  return <p className="uid-hints">{hints.join(' · ')}</p>;
}

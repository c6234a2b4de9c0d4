import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readStoredJson, writeStored } from '../state/persisted';

/** Which translated explanation fits the core's (English) description of the keychain failure. */
export function keychainReason(problem: string): 'noDbus' | 'noProvider' | 'locked' | 'sessionChosen' | 'other' {
  if (/^PRIVACY_DESK_CREDENTIAL_STORE=session/.test(problem)) return 'sessionChosen';
  if (/^No D-Bus session/i.test(problem)) return 'noDbus';
  if (/^No Secret Service provider/i.test(problem)) return 'noProvider';
  if (/^The keyring is locked/i.test(problem)) return 'locked';
  return 'other';
}

/** The problem the operator last folded the notice on: the same problem stays folded, a new one shows whole. */
const READ_KEY = 'privacy-desk-keychain-notice-read';

/**
 * Says, for the whole session, that credentials are kept in memory only. It cannot be dismissed: once read it
 * folds to one line (which still says it) under the pinned header, and Details opens it again.
 */
export function KeychainNotice({ problem }: { problem: string | undefined }) {
  const { t } = useTranslation();
  const bodyId = useId();
  const readFor = problem ?? '';
  const [folded, setFolded] = useState(() => readStoredJson<string | null>(READ_KEY, null) === readFor);
  const fold = () => {
    writeStored(READ_KEY, JSON.stringify(readFor));
    setFolded(true);
  };
  return (
    <div className={`keychain-notice ${folded ? 'keychain-notice--folded' : ''}`} role="status">
      <div className="keychain-notice__line">
        <span aria-hidden="true" className="keychain-notice__icon">!</span>
        <p className="keychain-notice__summary">
          <strong>{t('keychain.title')}</strong> <span>{t('keychain.detail')}</span>
        </p>
        <button type="button" className="button button--ghost button--small keychain-notice__toggle" aria-expanded={!folded} aria-controls={bodyId} onClick={folded ? () => setFolded(false) : fold}>
          {folded ? t('keychain.showDetails') : t('keychain.gotIt')}
        </button>
      </div>
      <div id={bodyId} className="keychain-notice__body" hidden={folded}>
        {problem && (
          <>
            <p className="keychain-notice__problem">{t(`keychain.reasons.${keychainReason(problem)}`)}</p>
            {/* The system's own words stay as they are (English), offered as a detail, not as the explanation. */}
            <details className="keychain-notice__detail">
              <summary>{t('keychain.technicalDetail')}</summary>
              <p lang="en">{problem}</p>
            </details>
          </>
        )}
      </div>
    </div>
  );
}

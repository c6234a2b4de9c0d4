import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toErrorInfo } from '../../../shared/errors';
import type { NearMatch, RecordedErasure } from '../../../shared/user-search';
import type { ErasureAction, UserRecord } from '../../../shared/users';
import { EmptyValue } from '../../components/empty-value';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleText, type VisibleTextKind } from '../../components/visible-text';
import { VisibleUid } from '../../components/visible-uid';
import { formatDate, formatDateTime, formatNumber } from '../../i18n/format';
import { visibleUidText } from '../../../shared/invisible-characters';
import { ListAge } from '../users/list-age';
import type { UidIdentity } from './use-uid-identity';

/** Who the uid belongs to, so the operator can compare with the ticket before typing it; and how old that list is. */
export function ErasureIdentity({ user, readAt }: { user: UserRecord; readAt: number }) {
  const { t, i18n } = useTranslation();
  const value = (text: string | null, kind: VisibleTextKind) => (text ? <VisibleText text={text} kind={kind} /> : <EmptyValue />);
  return (
    <section className="erasure-identity" aria-labelledby="erasure-identity-title">
      <h3 id="erasure-identity-title" className="erasure-identity__title">
        {t('identity.heading')}
      </h3>
      <p className="muted erasure-identity__age">
        <ListAge readAt={readAt} />
      </p>
      <dl className="facts facts--inline erasure-identity__facts">
        <div>
          <dt>{t('identity.name')}</dt>
          <dd>{value(user.fullName, 'name')}</dd>
        </div>
        <div>
          <dt>{t('identity.email')}</dt>
          <dd className="break">{value(user.email, 'exact')}</dd>
        </div>
        <div>
          <dt>{t('identity.created')}</dt>
          <dd>{user.createdAt ? formatDate(user.createdAt, i18n.language) : <EmptyValue />}</dd>
        </div>
        <div>
          <dt>{t('identity.contributions')}</dt>
          <dd>
            {t('identity.contributionCounts', {
              messages: formatNumber(user.messagesCount, i18n.language),
              votes: formatNumber(user.votesCount, i18n.language),
            })}
          </dd>
        </div>
      </dl>
      <p className="muted erasure-identity__hint">{t('identity.compareWithTicket')}</p>
    </section>
  );
}

/** While the console asks, then reads the service's list for this uid: the progress, and Cancel. */
export function IdentityCheck({ identity, onCancel }: { identity: Extract<UidIdentity, { phase: 'checking' | 'reading' }>; onCancel: () => void }) {
  const { t } = useTranslation();
  if (identity.phase === 'checking') {
    return (
      <p className="muted" role="status">
        {t('identity.checking')}
      </p>
    );
  }
  const reading = identity.reading;
  const progress = reading?.progress;
  return (
    <div className="find-person__progress erasure-reading" role="status">
      <span>
        {t('identity.reading')}{' '}
        {progress ? (progress.totalPages !== undefined ? t('search.readingOf', { page: progress.page, total: progress.totalPages, users: progress.collected }) : t('search.reading', { page: progress.page, users: progress.collected })) : null}
      </span>
      {progress?.totalPages ? <progress max={progress.totalPages} value={progress.page} /> : null}
      <button type="button" className="button button--small" onClick={onCancel} disabled={reading?.cancelling}>
        {reading?.cancelling ? t('search.cancelling') : t('common.cancel')}
      </button>
    </div>
  );
}

/** An erasure of this uid that the audit trail of this computer recorded since the console started. */
export function RecordedErasureNote({ erasure }: { erasure: RecordedErasure }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="erasure-recorded">
      {t(erasure.outcome === 'unknown' ? 'identity.erasureRecordedUnknown' : 'identity.erasureRecorded', {
        act: t(`identity.recordedAct.${erasure.action}`),
        time: formatDateTime(erasure.at, i18n.language),
        via: t(`identity.recordedVia.${erasure.via}`),
      })}
    </p>
  );
}

interface NoticeActions {
  onClose: () => void;
  onLookUp?: () => void;
}

function Actions({ onClose, onLookUp, extra }: NoticeActions & { extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="dialog__actions">
      <button type="button" className="button button--ghost" onClick={onClose}>
        {t('common.close')}
      </button>
      {onLookUp && (
        <button type="button" className="button" onClick={onLookUp}>
          {t('identity.lookUp')}
        </button>
      )}
      {extra}
    </div>
  );
}

/**
 * Said before the ceremony when the list of every user, read just now for this question, has no such uid:
 * a typo here would meet a 404 after a countdown, so there is nothing to continue to.
 */
export function AbsentUidNotice({
  indexedUsers,
  erasure,
  nearMatches = [],
  action,
  onOpenInstead,
  onLookUp,
  onClose,
}: NoticeActions & { indexedUsers: number; erasure?: RecordedErasure; nearMatches?: NearMatch[]; action: ErasureAction; onOpenInstead: (uid: string) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="erasure-unknown">
      <p className="callout callout--warning" role="status">
        <span aria-hidden="true">⚠ </span>
        <strong>{t('identity.unknownTitle')}</strong> {t('identity.absentFromFreshList', { count: indexedUsers, n: formatNumber(indexedUsers, i18n.language) })}
      </p>
      {erasure && <RecordedErasureNote erasure={erasure} />}
      {nearMatches.map((match) => (match.user.uid === null ? null : <NearMatchOffer key={match.user.uid} match={match} uid={match.user.uid} action={action} onOpen={onOpenInstead} />))}
      <p className="muted">{onLookUp ? t('identity.lookUpHint') : t('identity.lookUpPointer')}</p>
      <Actions onClose={onClose} onLookUp={onLookUp} />
    </div>
  );
}

/**
 * A user on the list the uid was likely meant for (" user-000031 " for user-000031, a case twin…), and, only if
 * the operator says so, that user's own dialog: its own identity check and a new typed confirmation.
 */
function NearMatchOffer({ match, uid, action, onOpen }: { match: NearMatch; uid: string; action: ErasureAction; onOpen: (uid: string) => void }) {
  const { t } = useTranslation();
  const labelId = `near-match-${match.kind}-${encodeURIComponent(uid)}`;
  return (
    <div className="erasure-near-match" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="erasure-near-match__why">
        {t(`identity.nearMatch.${match.kind}`)}
      </p>
      <p className="erasure-near-match__who">
        <VisibleUid uid={uid} />
        {match.user.fullName !== null && (
          <>
            {' '}
            <VisibleText text={match.user.fullName} />
          </>
        )}
        {match.user.email !== null && (
          <>
            {' · '}
            <VisibleText text={match.user.email} kind="exact" />
          </>
        )}
      </p>
      <p className="muted">{t('identity.nearMatchHint')}</p>
      <button type="button" className="button" onClick={() => onOpen(uid)}>
        {t(action === 'anonymize' ? 'identity.openInsteadAnonymize' : 'identity.openInsteadDelete', { uid: visibleUidText(uid) })}
      </button>
    </div>
  );
}

/** The list could not be read (or the read was stopped): nothing is claimed about the uid; the operator decides. */
export function UncheckedUidNotice({ identity, onRetry, onContinue, onLookUp, onClose }: NoticeActions & { identity: Extract<UidIdentity, { phase: 'not-read' | 'failed' }>; onRetry: () => void; onContinue: () => void }) {
  const { t } = useTranslation();
  const unreachable = identity.phase === 'failed' && ['NETWORK', 'TIMEOUT', 'TLS'].includes(toErrorInfo(identity.error).code);
  return (
    <div className="erasure-unknown">
      {identity.phase === 'failed' ? (
        <ErrorPanel title={unreachable ? t('identity.unreachable') : t('identity.listFailed')} error={identity.error} onRetry={onRetry} />
      ) : (
        <p className="callout callout--info" role="status">
          <strong>{t('identity.notReadTitle')}</strong> {t('identity.notReadBody')}{' '}
          <button type="button" className="button button--small" onClick={onRetry}>
            {t('identity.readList')}
          </button>
        </p>
      )}
      {identity.erasure && <RecordedErasureNote erasure={identity.erasure} />}
      <p className="muted">{t('identity.uncheckedHint')}</p>
      <Actions
        onClose={onClose}
        onLookUp={onLookUp}
        extra={
          <button type="button" className="button button--danger-ghost" onClick={onContinue}>
            {t('identity.continueAnyway')}
          </button>
        }
      />
    </div>
  );
}

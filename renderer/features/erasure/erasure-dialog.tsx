import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppInfo, ProfileView } from '../../../shared/contract';
import { DialogShell } from '../../components/dialog-shell';
import { ErrorPanel } from '../../components/error-panel';
import { toErrorInfo } from '../../../shared/errors';
import { Field } from '../../components/field';
import { UidHints, VisibleUid } from '../../components/visible-uid';
import { CopyUidButton } from '../../components/copy-button';
import { visibleUidText } from '../../../shared/invisible-characters';
import { useBridge } from '../../bridge/bridge-context';
import { useNotices } from '../../state/notices-store';
import { queryKeys } from '../../state/query-keys';
import { logoutFirstFor, useUiStore, type ErasureRequest } from '../../state/ui-store';
import { environmentOf } from '../../state/use-profiles';
import { ErasureFacts } from './erasure-facts';
import { AbsentUidNotice, ErasureIdentity, IdentityCheck, UncheckedUidNotice } from './erasure-identity';
import { useErasedUsers } from './erased-users';
import { ConfirmHint } from './confirm-hint';
import { lookUpInSearch, searchAvailable } from './look-up';
import { useUidIdentity } from './use-uid-identity';
import { erasureNotice } from './erasure-notice';
import { useCountdown } from './use-countdown';

/** The one way an erasure is sent from the console: facts, typed uid, a 5-second countdown, then the request. */
export function ErasureDialog({ profile, appInfo }: { profile: ProfileView | null; appInfo?: AppInfo }) {
  const { t } = useTranslation();
  const request = useUiStore((s) => s.erasure);
  const close = useUiStore((s) => s.closeErasure);
  const [locked, setLocked] = useState(false);
  if (!request) return null;
  const title = request.action === 'anonymize' ? t('erasure.titleAnonymize', { uid: visibleUidText(request.uid) }) : t('erasure.titleDelete', { uid: visibleUidText(request.uid) });
  const environment = profile ? environmentOf(profile, appInfo) : 'live';
  return (
    <DialogShell
      open
      onOpenChange={(open) => (open ? undefined : close())}
      title={title}
      tone={environment === 'live' ? 'live' : 'danger'}
      locked={locked}
      className="dialog--erasure"
    >
      {profile ? (
        <ErasureForm key={`${request.action}:${request.uid}`} request={request} profile={profile} appInfo={appInfo} onClose={close} onLock={setLocked} />
      ) : (
        <p>{t('erasure.noProfile')}</p>
      )}
    </DialogShell>
  );
}

interface ErasureFormProps {
  request: ErasureRequest;
  profile: ProfileView;
  appInfo?: AppInfo;
  onClose: () => void;
  onLock: (locked: boolean) => void;
}

function ErasureForm({ request, profile, appInfo, onClose, onLock }: ErasureFormProps) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const pushNotice = useNotices((s) => s.push);
  const logoutFirst = useUiStore((s) => logoutFirstFor(s, profile.id));
  const setLogoutFirst = useUiStore((s) => s.setLogoutFirst);
  const [typed, setTyped] = useState('');
  const [reference, setReference] = useState('');
  const [cancelled, setCancelled] = useState(false);
  // Set in the same tick the countdown ends, so the form never flashes back before the request starts.
  const [sending, setSending] = useState(false);
  const sentRef = useRef(false);
  const { action, uid } = request;
  const markErased = useErasedUsers((s) => s.mark);
  // Who the uid belongs to, from a list whose age is said; absence only from a list read now (use-uid-identity.ts).
  const { identity, cancel: cancelRead, retry: checkAgain } = useUidIdentity(profile.id, uid);
  const [uncheckedAcknowledged, setUncheckedAcknowledged] = useState(false);
  // Whatever the service answered, the screens that showed this user are read again.
  const refreshUsers = () => void queryClient.invalidateQueries({ queryKey: queryKeys.usersOfProfile(profile.id) });

  const erase = useMutation({
    mutationFn: () =>
      bridge['users.erase']({
        profileId: profile.id,
        action,
        uid,
        confirmUid: typed,
        logoutFirst,
        ...(reference.trim() ? { reference: reference.trim() } : {}),
      }),
    onMutate: () => onLock(true),
    onSettled: () => {
      onLock(false);
      setSending(false);
    },
    onSuccess: (result) => {
      markErased({ profileId: profile.id, uid, action, result: 'done' });
      refreshUsers();
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
      const sentReference = reference.trim();
      pushNotice({ ...erasureNotice(result, t), uid: visibleUidText(result.uid), ...(sentReference ? { receiptFor: { reference: sentReference } } : {}) });
      onClose();
    },
    onError: (error) => {
      sentRef.current = false;
      const info = toErrorInfo(error);
      // Not on the service, or perhaps erased: nothing may offer to act on this user as if nothing happened.
      if (info.code === 'NOT_FOUND') markErased({ profileId: profile.id, uid, action, result: 'not-found' });
      else if (info.outcome === 'unknown') markErased({ profileId: profile.id, uid, action, result: 'unknown' });
      if (info.outcome !== 'not-sent') refreshUsers();
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });

  const countdown = useCountdown(() => {
    if (sentRef.current) return;
    sentRef.current = true;
    setSending(true);
    erase.mutate();
  });

  const matches = typed === uid;
  // A 404 will not change on a second try: the button becomes Close.
  const notFound = erase.isError && toErrorInfo(erase.error).code === 'NOT_FOUND';
  const phase = sending || erase.isPending ? 'sending' : countdown.running ? 'countdown' : 'confirm';

  const uidBox = (
    <div className="erasure-uid">
      <span className="erasure-uid__label">{t('erasure.uidToErase')}</span>
      <VisibleUid uid={uid} className="uid-box--large" />
      <CopyUidButton uid={uid} />
      <UidHints uid={uid} />
    </div>
  );
  const lookUp = searchAvailable()
    ? () => {
        onClose();
        lookUpInSearch(uid);
      }
    : undefined;

  if (identity.phase === 'checking' || identity.phase === 'reading') {
    return (
      <div className="erasure">
        {uidBox}
        <IdentityCheck identity={identity} onCancel={() => void cancelRead()} />
      </div>
    );
  }
  if (identity.phase === 'absent') {
    return (
      <div className="erasure">
        {uidBox}
        <AbsentUidNotice indexedUsers={identity.indexedUsers} erasure={identity.erasure} onClose={onClose} onLookUp={lookUp} />
      </div>
    );
  }
  if ((identity.phase === 'not-read' || identity.phase === 'failed') && !uncheckedAcknowledged) {
    return (
      <div className="erasure">
        {uidBox}
        <UncheckedUidNotice identity={identity} onRetry={checkAgain} onContinue={() => setUncheckedAcknowledged(true)} onClose={onClose} onLookUp={lookUp} />
      </div>
    );
  }

  return (
    <div className="erasure">
      <ErasureFacts action={action} profile={profile} environment={environmentOf(profile, appInfo)} />
      {uidBox}
      {identity.phase === 'found' ? (
        <ErasureIdentity user={identity.user} readAt={identity.readAt} />
      ) : (
        <p className="callout callout--warning erasure-unknown-reminder">
          <span aria-hidden="true">⚠ </span>
          {t('identity.uncheckedReminder')}
        </p>
      )}

      {phase === 'confirm' && (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!matches || notFound) return;
            setCancelled(false);
            erase.reset();
            countdown.start();
          }}
        >
          <Field
            label={t('erasure.typeUid')}
            liveHint
            hint={<ConfirmHint typed={typed} uid={uid} />}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            className="field--mono"
          />
          <Field label={t('erasure.reference')} hint={t('erasure.referenceHint')} value={reference} onChange={(event) => setReference(event.target.value)} maxLength={200} autoComplete="off" />
          <label className="checkbox">
            <input type="checkbox" checked={logoutFirst} onChange={(event) => setLogoutFirst(profile.id, event.target.checked)} aria-describedby="erasure-logout-first-hint" />
            <span>{t('erasure.logoutFirst')}</span>
          </label>
          <p id="erasure-logout-first-hint" className="muted">
            {t('erasure.logoutFirstHint')}
          </p>
          {cancelled && (
            <p className="callout callout--info" role="status">
              {t('erasure.cancelled')}
            </p>
          )}
          {erase.isError && <ErrorPanel title={t('erasure.failed')} error={erase.error} showOutcome />}
          <div className="dialog__actions">
            {!notFound && (
              <button type="button" className="button button--ghost" onClick={onClose}>
                {t('common.cancel')}
              </button>
            )}
            {/* After a cancel, focus returns here rather than to the page behind. */}
            {notFound ? (
              <button type="button" className="button button--primary" onClick={onClose} autoFocus>
                {t('common.close')}
              </button>
            ) : (
              <button type="submit" className="button button--danger" disabled={!matches} autoFocus={cancelled}>
                {t('common.confirm')}
              </button>
            )}
          </div>
        </form>
      )}

      {phase === 'countdown' && (
        <div className="countdown">
          <p className="countdown__number" aria-hidden="true">{countdown.remaining}</p>
          <div className="countdown__text" role="timer" aria-live="polite" aria-atomic="true">
            <p className="countdown__title">{t('erasure.countdown', { seconds: countdown.remaining ?? 0 })}</p>
            <p className="countdown__hint">{t('erasure.countdownHint')}</p>
          </div>
          <button
            type="button"
            className="button button--large button--primary countdown__cancel"
            // Focus lands here so Enter or Space stops the request.
            autoFocus
            onClick={() => {
              countdown.cancel();
              setCancelled(true);
            }}
          >
            {t('common.cancel')}
          </button>
        </div>
      )}

      {phase === 'sending' && (
        <div className="sending" role="status">
          <span className="spinner" aria-hidden="true" />
          <div>
            <p className="sending__title">{t('erasure.sending')}</p>
            <p className="muted">{t('erasure.sendingHint')}</p>
          </div>
        </div>
      )}
    </div>
  );
}

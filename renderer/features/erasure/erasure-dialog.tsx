import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppInfo, ProfileView } from '../../../shared/contract';
import { DialogShell } from '../../components/dialog-shell';
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
import { ErasureConfirmForm } from './erasure-confirm-form';
import { ErasureOutcome, outcomeStep } from './erasure-outcome';
import { ErasureCountdown, ErasureSending } from './erasure-progress';
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
  const [reference, setReference] = useState(request.requestId ?? '');
  const [cancelled, setCancelled] = useState(false);
  // Set in the same tick the countdown ends, so the form never flashes back before the request starts.
  const [sending, setSending] = useState(false);
  const sentRef = useRef(false);
  const { action, uid } = request;
  const markErased = useErasedUsers((s) => s.mark);
  const openErasure = useUiStore((s) => s.openErasure);
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
        ...(request.requestId ? { requestId: request.requestId } : {}),
      }),
    onMutate: () => onLock(true),
    onSettled: () => {
      onLock(false);
      // The act is linked to its request whatever its outcome: the request's page reads it again.
      if (request.requestId) void queryClient.invalidateQueries({ queryKey: ['requests'] });
      setSending(false);
      // The typed confirmation is spent on the request it confirmed: whatever the answer, it is never sent again.
      setTyped('');
    },
    onSuccess: (result) => {
      markErased({ profileId: profile.id, uid, action, result: 'done' });
      refreshUsers();
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
      const sentReference = reference.trim();
      pushNotice({ ...erasureNotice(result), uid: visibleUidText(result.uid), ...(sentReference ? { receiptFor: { reference: sentReference } } : {}) });
      onClose();
    },
    onError: (error) => {
      sentRef.current = false;
      const step = outcomeStep(error);
      // Not on the service, perhaps erased, or erased with its outcome unrecorded: nothing may offer to act on this user as if nothing happened.
      if (step === 'not-found' || step === 'unknown' || step === 'done') markErased({ profileId: profile.id, uid, action, result: step });
      if (step !== 'not-sent') refreshUsers();
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });

  const countdown = useCountdown(() => {
    if (sentRef.current) return;
    sentRef.current = true;
    setSending(true);
    erase.mutate();
  });

  const phase = sending || erase.isPending ? 'sending' : countdown.running ? 'countdown' : erase.isError ? 'outcome' : 'confirm';

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

  if (phase === 'outcome') {
    return (
      <div className="erasure">
        <ErasureOutcome
          uid={uid}
          error={erase.error}
          onClose={onClose}
          onLookUp={lookUp}
          onStartAgain={() => {
            setCancelled(false);
            erase.reset();
          }}
        />
      </div>
    );
  }
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
        <AbsentUidNotice
          indexedUsers={identity.indexedUsers}
          erasure={identity.erasure}
          nearMatches={identity.nearMatches}
          action={action}
          // Another user's own dialog: it checks who they are and asks for their uid to be typed.
          onOpenInstead={(meant) => openErasure({ action, uid: meant })}
          onClose={onClose}
          onLookUp={lookUp}
        />
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
        <ErasureConfirmForm
          uid={uid}
          typed={typed}
          onTyped={setTyped}
          reference={reference}
          onReference={setReference}
          logoutFirst={logoutFirst}
          onLogoutFirst={(checked) => setLogoutFirst(profile.id, checked)}
          cancelled={cancelled}
          onCancel={onClose}
          onConfirm={() => {
            setCancelled(false);
            countdown.start();
          }}
        />
      )}

      {phase === 'countdown' && (
        <ErasureCountdown
          remaining={countdown.remaining}
          onCancel={() => {
            countdown.cancel();
            setCancelled(true);
          }}
        />
      )}

      {phase === 'sending' && <ErasureSending />}
    </div>
  );
}

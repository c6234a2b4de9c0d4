import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import type { ConformanceRun } from '../../../shared/logout-conformance';
import { visibleUidText } from '../../../shared/invisible-characters';
import { uidProblem } from '../../../shared/uid';
import { useBridge } from '../../bridge/bridge-context';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime } from '../../i18n/format';
import { hostOf } from '../../state/use-profiles';
import { ConformanceConfirm } from './conformance-confirm';
import { ConformanceTable } from './conformance-table';

/** The logout tester's conformance run for the uid above: a confirmation first on live data, then the table of verdicts. */
export function ConformanceRunSection({ profile, uid }: { profile: ProfileView; uid: string }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const run = useMutation({
    mutationFn: (confirmUid?: string) => bridge['logout.conformance']({ profileId: profile.id, uid, ...(confirmUid !== undefined ? { confirmUid } : {}) }),
    // Every send is in the trail, and sessions changed: what shows either is read again.
    onSettled: () => void queryClient.invalidateQueries(),
  });
  const uidOk = uid !== '' && uidProblem(uid) === undefined;
  const start = () => (profile.isLocal ? run.mutate(undefined) : setConfirming(true));
  const result = run.data && run.data.profileId === profile.id ? run.data : undefined;

  return (
    <CardSection title={t('conformance.title')} hint={t('conformance.hint')} className="conformance-section">
      <p className="conformance__note">{profile.isLocal ? t('conformance.sandboxNote') : t('conformance.liveNote')}</p>
      <div className="conformance__start">
        <button type="button" className="button button--primary" disabled={!uidOk || run.isPending} onClick={start}>
          {run.isPending ? t('conformance.running') : t('conformance.run')}
        </button>
        {!uidOk ? <span className="muted">{t('conformance.needUid')}</span> : null}
      </div>
      {run.isError ? <ErrorPanel title={t('conformance.failed')} error={run.error} /> : null}
      {result ? (
        <>
          <p className={`conformance__overall conformance__overall--${result.overall}`} role="status" data-overall={result.overall}>
            <strong>{t(`conformance.overall.${result.overall}`)}</strong>{' '}
            {t('conformance.summary', { conformant: result.counts.conformant, notConformant: result.counts['not-conformant'], inconclusive: result.counts.inconclusive })}
            {!result.sessionsChecked ? ` ${noSessionUser(result) ? t('conformance.sessionsNoUser', { uid: visibleUidText(result.uid) }) : t('conformance.sessionsNotChecked')}` : ''}
          </p>
          {/* The results name their uid and service: the field above may have changed since. */}
          <p className="muted small conformance__ran-for" data-testid="conformance-ran-for">
            {t('conformance.ranFor', { uid: visibleUidText(result.uid), host: hostOf(result.baseUrl), when: formatDateTime(result.finishedAt, i18n.language) })}
          </p>
          {result.uid !== uid ? (
            <p className="callout conformance__other-uid" role="note" data-testid="conformance-other-uid">
              {t('conformance.otherUid', { uid: visibleUidText(result.uid) })}
            </p>
          ) : null}
          <ConformanceTable run={result} />
        </>
      ) : null}
      {confirming ? (
        <ConformanceConfirm
          uid={uid}
          host={hostOf(profile.baseUrl)}
          onCancel={() => setConfirming(false)}
          onConfirm={(typed) => {
            setConfirming(false);
            run.mutate(typed);
          }}
        />
      ) : null}
    </CardSection>
  );
}

/** On a sandbox, sessions go uncounted when no active user has the uid: none could be opened before a token. */
function noSessionUser(run: ConformanceRun): boolean {
  return run.cases.some((one) => one.sends.some((send) => send.sessions === 'no-session'));
}

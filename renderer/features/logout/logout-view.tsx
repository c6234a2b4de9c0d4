import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import { uidProblem } from '../../../shared/uid';
import { useBridge } from '../../bridge/bridge-context';
import { Field } from '../../components/field';
import { UidHints } from '../../components/visible-uid';
import { queryKeys } from '../../state/query-keys';
import { useUiStore } from '../../state/ui-store';
import { buildLogoutOptions } from './build-options';
import { ClaimsEditor } from './claims-editor';
import { LogoutHistory } from './logout-history';
import { useLogoutStore } from './logout-store';
import { NegativeCases } from './negative-cases';
import { ConformanceRunSection } from './conformance-run';
import { SendResult } from './send-result';
import { SimulateLogin } from './simulate-login';
import { TokenPreview } from './token-preview';
import { useLogoutTest } from './use-logout-test';
import { VerifyToken } from './verify-token';
import { ViewSection } from '../../components/view-section';
import { LiveConfirmDialog } from '../../components/live-confirm-dialog';
import { hostOf } from '../../state/use-profiles';
import { visibleUidText } from '../../../shared/invisible-characters';

export function LogoutView({ profile }: { profile: ProfileView }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const formId = useId();
  const uid = useUiStore((s) => s.logoutUid);
  const setUid = useUiStore((s) => s.setLogoutUid);
  const draft = useLogoutStore((s) => s.draft);
  const history = useLogoutStore((s) => s.history).filter((entry) => entry.profileId === profile.id);
  const { options, problems } = buildLogoutOptions(draft, { live: !profile.isLocal });
  const uidOk = uid !== '' && uidProblem(uid) === undefined;
  const test = useLogoutTest(profile);
  const sessions = useQuery({
    queryKey: queryKeys.sandboxUserState(profile.id, uid),
    queryFn: () => bridge['sandbox.userState']({ profileId: profile.id, uid }),
    enabled: profile.isLocal && uidOk,
  });
  const canSend = uidOk && options !== undefined && !test.isPending;
  type TestCase = Parameters<typeof test.mutate>[0]['testCase'];
  // On live data every send (a negative case too) is confirmed first: it reaches the real service.
  const [awaitingConfirm, setAwaitingConfirm] = useState<TestCase | null>(null);
  const send = (testCase: TestCase) => {
    if (options) test.mutate({ uid, options, testCase });
  };
  const run = (testCase: TestCase) => {
    if (!options) return;
    if (profile.isLocal) send(testCase);
    else setAwaitingConfirm(testCase);
  };

  return (
    <ViewSection id="logout" title={t('logout.title')} intro={t('logout.intro')}>
      <div className="logout-layout">
        <form
          id={formId}
          className="card logout-builder"
          onSubmit={(event) => {
            event.preventDefault();
            if (canSend) run('valid');
          }}
        >
          <Field
            label={t('logout.uid')}
            placeholder={t('logout.uidPlaceholder')}
            value={uid}
            onChange={(event) => setUid(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            className="field--mono"
            hint={uid ? <UidHints uid={uid} /> : undefined}
          />
          {sessions.data && <p className="sessions">{t('logout.sessionsNow', { count: sessions.data.sessionCount })}</p>}
          {sessions.data?.exists && <SimulateLogin profile={profile} uid={uid} />}
          <ClaimsEditor applicationName={profile.applicationName} problems={problems} />
          <div className="logout-builder__actions">
            <button type="submit" className="button button--primary button--large" disabled={!canSend}>
              {test.isPending && test.variables?.testCase === 'valid' ? t('logout.sending') : t('logout.send')}
            </button>
          </div>
        </form>
        <TokenPreview profileId={profile.id} uid={uidOk ? uid : ''} options={options} />
      </div>
      {test.data && <SendResult outcome={test.data} />}
      <NegativeCases history={history} disabled={!canSend} pendingCase={test.isPending ? (test.variables?.testCase ?? null) : null} onRun={run} />
      <ConformanceRunSection profile={profile} uid={uid} />
      <LogoutHistory history={history} />
      <VerifyToken profileId={profile.id} />
      {awaitingConfirm !== null && (
        <LiveConfirmDialog
          open
          title={awaitingConfirm === 'valid' ? t('liveConfirm.logoutTitle') : t('liveConfirm.logoutNegativeTitle')}
          body={
            awaitingConfirm === 'valid'
              ? t('liveConfirm.logoutBody', { uid: visibleUidText(uid), host: hostOf(profile.baseUrl) })
              : t('liveConfirm.logoutNegativeBody', { testCase: t(`logout.cases.${awaitingConfirm}`), uid: visibleUidText(uid), host: hostOf(profile.baseUrl) })
          }
          confirmLabel={t('liveConfirm.logoutConfirm')}
          onCancel={() => setAwaitingConfirm(null)}
          onConfirm={() => {
            const testCase = awaitingConfirm;
            setAwaitingConfirm(null);
            send(testCase);
          }}
        />
      )}
    </ViewSection>
  );
}

import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppInfo, ProfileView } from '../../../shared/contract';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { environmentOf } from '../../state/use-profiles';
import { confirmationTarget, useBatchDraft } from './batch-draft-store';
import { BatchConfirm } from './batch-confirm';
import { BatchInput } from './batch-input';
import { BatchPreviewPanel, PASTED_LIST } from './batch-preview-panel';
import { useBatchRun } from './batch-run-store';
import { useBatchPreview } from './use-batch-preview';
import { PrivacyDeskError } from '../../../shared/errors';
import { msg } from '../../../shared/messages';
import { referenceProblem } from '../../../shared/reference';

/** A new batch on one screen: the list, its preview, the typed confirmation and Start. */
export function BatchCompose({ profile, appInfo }: { profile: ProfileView; appInfo?: AppInfo }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const draft = useBatchDraft();
  const run = useBatchRun((s) => s.run);
  const startRun = useBatchRun((s) => s.start);
  const immediate = useRef(false);
  const { preview, pending, error } = useBatchPreview({
    text: draft.file ? draft.file.text : draft.pasted,
    sourceName: draft.file?.name ?? PASTED_LIST,
    separator: draft.separator,
    uidColumn: draft.uidColumn,
    referenceColumn: draft.referenceColumn,
    hasHeader: draft.hasHeader,
    immediate,
  });
  const environment = environmentOf(profile, appInfo);
  const useTrimmed = preview !== null && draft.useTrimmedFor === preview.draftId;
  // What Start would send now: a phrase typed for anything else (another profile, preview or choice) confirms nothing.
  const target = confirmationTarget({ profileId: profile.id, draftId: preview?.draftId ?? '', action: draft.action, logoutFirst: draft.logoutFirst, useTrimmed });
  const typed = draft.typedFor === target ? draft.typed : '';
  const count = preview?.items ?? 0;

  const start = () => {
    if (!preview) return;
    // One phrase, one click: whatever the answer, another Start is confirmed again.
    draft.forgetConfirmation();
    if (!events) {
      useBatchRun.setState({ run: { phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') }) } });
      return;
    }
    const reference = draft.reference.trim();
    void startRun(bridge, events, () =>
      bridge['batch.start']({
        draftId: preview.draftId,
        profileId: profile.id,
        action: draft.action,
        logoutFirst: draft.logoutFirst,
        concurrency: 4,
        confirmation: typed,
        useTrimmed,
        ...(reference ? { reference } : {}),
        ...(draft.requestId ? { requestId: draft.requestId } : {}),
      }),
    );
  };

  return (
    <div className="batch-compose">
      {draft.requestId ? (
        <p className="callout batch-for-request" data-testid="batch-for-request">
          {t('requests.batch.forRequest', { id: draft.requestId })}{' '}
          <button type="button" className="link-button" onClick={() => draft.set({ requestId: '' })}>
            {t('requests.batch.notForRequest')}
          </button>
        </p>
      ) : null}
      <BatchInput preview={preview} immediate={immediate} />
      <BatchPreviewPanel preview={preview} pending={pending} error={error} action={draft.action} profile={profile} environment={environment} />
      <CardSection title={t('batch.confirm.heading')} hint={t('batch.confirm.intro')} className={`batch-card batch-confirm-card ${environment === 'live' ? 'batch-confirm-card--live' : ''}`}>
        {preview && count > 0 ? (
          <BatchConfirm
            action={draft.action}
            count={count}
            typed={typed}
            onTyped={(text) => draft.set({ typed: text, typedFor: target })}
            onStart={start}
            starting={run.phase === 'starting'}
            blocked={pending ? t('batch.confirm.waitPreview') : referenceProblem(draft.reference) ? t('batch.confirm.fixReference') : undefined}
            startLabel={t('batch.confirm.start')}
          >
            {run.phase === 'failed' && <ErrorPanel title={t('batch.confirm.startFailed')} error={run.error} />}
          </BatchConfirm>
        ) : (
          <p className="muted">{t('batch.confirm.needList')}</p>
        )}
      </CardSection>
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestSubject, RequestView } from '../../../shared/requests';
import { ERASURE_ACTIONS, type ErasureAction } from '../../../shared/users';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleUid } from '../../components/visible-uid';
import { useUiStore } from '../../state/ui-store';
import { useActiveProfile, useProfiles } from '../../state/use-profiles';
import { useBatchDraft } from '../batch/batch-draft-store';
import { FindPerson } from '../users/find-person';
import { useApplyChange } from './use-requests';

/**
 * Who the request concerns: each uid with the erasures the request asks for, sent through the one erasure dialog
 * with the request's id as the reference and the act linked to it; more uids added with "find a person".
 */
export function RequestSubjects({ view, open }: { view: RequestView; open: boolean }) {
  const { t } = useTranslation();
  const profile = useActiveProfile();
  const profiles = useProfiles().data?.profiles ?? [];
  const openErasure = useUiStore((s) => s.openErasure);
  const setView = useUiStore((s) => s.setView);
  const apply = useApplyChange(view.id);
  const [finding, setFinding] = useState(false);
  const erasures = view.actions.filter((action): action is ErasureAction => (ERASURE_ACTIONS as readonly string[]).includes(action));
  const profileName = (id: string | undefined) => profiles.find((p) => p.id === id)?.name ?? id;
  // A batch of this request's uids on the active profile: each line read whole, the request its reference and linked.
  const ofActiveProfile = view.subjects.filter((s) => profile !== null && (s.profileId === undefined || s.profileId === profile.id)).map((s) => s.uid);
  const startBatch = () => {
    const draft = useBatchDraft.getState();
    draft.clear();
    draft.set({ pasted: ofActiveProfile.join('\n'), separator: 'none', reference: view.id, requestId: view.id, action: erasures[0] ?? 'anonymize' });
    setView('batch');
  };
  // A request concerns at least one uid: the last one stays (a wrong one is replaced by adding the right one first).
  const removeSubject = (subject: RequestSubject) => apply.mutate({ kind: 'update', fields: { subjects: view.subjects.filter((s) => s !== subject) } });
  const addSubject = (subject: RequestSubject) => {
    if (view.subjects.some((s) => s.uid === subject.uid && s.profileId === subject.profileId)) return;
    apply.mutate({ kind: 'update', fields: { subjects: [...view.subjects, subject] } });
  };

  return (
    <section className="card request-subjects" aria-labelledby="request-subjects-title">
      <div className="card__header">
        <h3 id="request-subjects-title" className="card__title">
          {t('requests.subjects.title')}
        </h3>
        {open && profile ? (
          <span className="request-subjects__tools">
            {erasures.length > 0 && ofActiveProfile.length > 0 ? (
              <button type="button" className="button button--small" onClick={startBatch}>
                {t('requests.subjects.batch')}
              </button>
            ) : null}
            <button type="button" className="button button--small" aria-expanded={finding} onClick={() => setFinding(!finding)}>
              {finding ? t('requests.subjects.doneFinding') : t('requests.subjects.find')}
            </button>
          </span>
        ) : null}
      </div>
      <ul className="request-subjects__list">
        {view.subjects.map((subject) => {
          // The dialog acts on the active profile: a uid of another profile waits until that one is chosen.
          const elsewhere = subject.profileId !== undefined && profile !== null && subject.profileId !== profile.id;
          return (
            <li key={`${subject.profileId ?? ''}:${subject.uid}`} className="request-subjects__item" data-testid="request-subject">
              <VisibleUid uid={subject.uid} inline />
              {subject.profileId ? <span className="tag">{profileName(subject.profileId)}</span> : null}
              {open && erasures.length > 0 ? (
                <span className="request-subjects__acts">
                  {elsewhere || !profile ? (
                    <span className="muted">{t('requests.subjects.otherProfile', { profile: profileName(subject.profileId) ?? '' })}</span>
                  ) : (
                    erasures.map((action) => (
                      <button key={action} type="button" className="button button--small button--danger-ghost" onClick={() => openErasure({ action, uid: subject.uid, requestId: view.id })}>
                        {t(`requests.subjects.${action}`)}
                      </button>
                    ))
                  )}
                </span>
              ) : null}
              {open && view.subjects.length > 1 ? (
                <button type="button" className="button button--small button--ghost" aria-label={t('requests.subjects.removeUid', { uid: subject.uid })} onClick={() => removeSubject(subject)}>
                  {t('requests.subjects.remove')}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {apply.isError ? <ErrorPanel title={t('requests.subjects.changeFailed')} error={apply.error} onRetry={() => apply.reset()} /> : null}
      {finding && profile ? (
        <div className="request-subjects__find">
          <p className="field__hint">{t('requests.subjects.findHint', { profile: profile.name })}</p>
          <FindPerson
            profileId={profile.id}
            onOpen={(user) => {
              if (user.uid !== null) addSubject({ uid: user.uid, profileId: profile.id });
            }}
          />
        </div>
      ) : null}
    </section>
  );
}

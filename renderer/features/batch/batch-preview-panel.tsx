import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PREVIEW_INVALID, type BatchCheckResult, type BatchPreview } from '../../../shared/batch';
import type { ProfileView } from '../../../shared/contract';
import { MAX_UID_LENGTH, type UidProblem } from '../../../shared/uid';
import type { ReferenceProblem } from '../../../shared/reference';
import { UID_PROBLEM_KEYS } from '../users/uid-problem-keys';
import type { ErasureAction } from '../../../shared/users';
import { CardSection } from '../../components/card-section';
import { VisibleUid } from '../../components/visible-uid';
import { ErrorPanel } from '../../components/error-panel';
import { formatNumber } from '../../i18n/format';
import type { Environment } from '../../state/use-profiles';
import { ErasureFacts } from '../erasure/erasure-facts';
import { BatchCheck } from './batch-check';
import { useBatchDraft } from './batch-draft-store';

export const PASTED_LIST = 'pasted list';

interface PreviewPanelProps {
  preview: BatchPreview | null;
  pending: boolean;
  error: unknown;
  action: ErasureAction;
  profile: ProfileView;
  environment: Environment;
}

/** Step 2: where, what is erased and kept (the single act's words), and what the list holds — before anything is sent. */
export function BatchPreviewPanel({ preview, pending, error, action, profile, environment }: PreviewPanelProps) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  // The last check of this draft: with the trimmed uids chosen, the ends are shown as they will be sent.
  const [checked, setChecked] = useState<{ draftId: string; result: BatchCheckResult } | null>(null);
  const trimmedChosen = useBatchDraft((s) => preview !== null && s.useTrimmedFor === preview.draftId);
  const asSent = trimmedChosen && checked?.draftId === preview?.draftId ? checked?.result.trimmable.whenTrimmed : undefined;
  return (
    <CardSection title={t('batch.preview.heading')} hint={t('batch.preview.hint')} className="batch-card batch-preview">
      <ErasureFacts action={action} profile={profile} environment={environment} />
      {error ? (
        <ErrorPanel title={t('batch.preview.failed')} error={error} />
      ) : !preview ? (
        <p className="empty-inline" role="status">
          {pending ? t('batch.preview.reading') : t('batch.preview.empty')}
        </p>
      ) : (
        <div className="batch-preview__body" aria-busy={pending}>
          <p className="batch-preview__summary" role="status">
            <strong>{t(action === 'anonymize' ? 'batch.preview.toAnonymize' : 'batch.preview.toDelete', { count: preview.items, formatted: n(preview.items) })}</strong>
            {pending && <span className="muted"> · {t('batch.preview.reading')}</span>}
          </p>
          <dl className="facts batch-preview__facts">
            <div>
              <dt>{t('batch.preview.source')}</dt>
              <dd>
                {/* The core names a paste "pasted list": said in the window's language. */}
                {preview.sourceName === PASTED_LIST ? t('batch.preview.pasted') : preview.sourceName}
                {preview.kind !== 'list' && <span className="muted"> ({t(`batch.preview.kinds.${preview.separator === 'semicolon' ? 'csvSemicolon' : preview.kind}`)})</span>}
              </dd>
            </div>
            <div>
              <dt>{t('batch.preview.valid')}</dt>
              <dd className="numeric">{n(preview.items)}</dd>
            </div>
            <div>
              <dt>{t('batch.preview.duplicates')}</dt>
              <dd className="numeric">{n(preview.duplicates)}</dd>
            </div>
            <div>
              <dt>{t('batch.preview.invalid')}</dt>
              <dd className="numeric">{n(preview.invalidCount)}</dd>
            </div>
            {preview.uidColumn && (
              <div className="batch-preview__fact--wide">
                <dt>{t('batch.preview.uidColumn')}</dt>
                <dd>{uidColumnText(preview.uidColumn, t)}</dd>
              </div>
            )}
            {preview.withReference > 0 && (
              <div>
                <dt>{t('batch.preview.withReference')}</dt>
                <dd className="numeric">{n(preview.withReference)}</dd>
              </div>
            )}
          </dl>
          {preview.items === 0 && <p className="callout callout--warning">{t('batch.preview.nothingValid')}</p>}
          {preview.edgeSpaces.count > 0 && <EdgeSpaces edgeSpaces={preview.edgeSpaces} />}
          {preview.items > 0 && <UidEnds preview={preview} ends={asSent} />}
          {preview.invalidCount > 0 && <InvalidLines preview={preview} />}
          {preview.items > 0 && <BatchCheck draftId={preview.draftId} profileId={profile.id} items={preview.items} stale={pending} onResult={(result) => setChecked({ draftId: preview.draftId, result })} />}
        </div>
      )}
    </CardSection>
  );
}

/** The first and last uids, exactly as they will be sent (text only; long ones wrap): trimmed where the operator chose so. */
function UidEnds({ preview, ends = preview }: { preview: BatchPreview; ends?: Pick<BatchPreview, 'firstUids' | 'lastUids'> | undefined }) {
  const { t } = useTranslation();
  const { firstUids, lastUids } = ends;
  // A short list: the ends overlap, so it is shown once.
  const whole = preview.items <= preview.firstUids.length + preview.lastUids.length;
  const list = (uids: string[], label: string) => (
    <div className="batch-ends__group">
      <h4 className="batch-ends__label">{label}</h4>
      <ol className="batch-ends__list">
        {uids.map((uid, index) => (
          <li key={`${index}:${uid}`} className="uid-text">
            <VisibleUid uid={uid} inline />
          </li>
        ))}
      </ol>
    </div>
  );
  const all = whole ? [...firstUids, ...lastUids.filter((uid) => !firstUids.includes(uid))] : [];
  return <div className="batch-ends">{whole ? list(all, t('batch.preview.allUids')) : (<>{list(firstUids, t('batch.preview.firstUids'))}{list(lastUids, t('batch.preview.lastUids'))}</>)}</div>;
}

function InvalidLines({ preview }: { preview: BatchPreview }) {
  const { t } = useTranslation();
  const more = preview.invalidCount - preview.invalid.length;
  return (
    <section className="batch-invalid" aria-label={t('batch.preview.invalidHeading')}>
      <h4 className="batch-invalid__heading">
        <span aria-hidden="true">⚠ </span>
        {t('batch.preview.invalidHeading')}
      </h4>
      <ul className="batch-invalid__list" tabIndex={0} aria-label={t('batch.preview.invalidHeading')}>
        {preview.invalid.slice(0, MAX_PREVIEW_INVALID).map((line) => (
          <li key={line.line}>
            <span className="batch-invalid__line">{t('batch.preview.line', { line: line.line })}</span>
            {line.excerpt && (
              <code className="batch-invalid__excerpt">
                <VisibleUid uid={line.excerpt} inline />
              </code>
            )}
            {/* The core's `reason` is English: the code is worded in the window's language. */}
            <span className="batch-invalid__reason">{problemText(line.problem, t)}</span>
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted small">{t('batch.preview.invalidMore', { count: more })}</p>}
    </section>
  );
}

// i18next's own type: the hook's, with every key of the catalogue, is too deep for these helpers to check.
type Translate = TFunction;


/** The column the uids were read from: its header name when it has one, and its 1-based number. */
function uidColumnText(column: NonNullable<BatchPreview['uidColumn']>, t: Translate): string {
  const number = column.index + 1;
  return column.name ? t('batch.preview.uidColumnNamed', { name: column.name, number }) : t('batch.preview.uidColumnNumber', { number });
}

/** The single act's words for a uid rule; an empty uid cell (never typed in the single act) and a too long reference have their own. */
function problemText(problem: UidProblem | ReferenceProblem, t: Translate): string {
  if (problem.code === 'reference-too-long') return t('batch.preview.problems.referenceTooLong', { length: problem.length, max: problem.max });
  if (problem.code === 'reference-invisible') return t('batch.preview.problems.referenceInvisible', { label: problem.label, character: problem.character, position: problem.position });
  const key = UID_PROBLEM_KEYS[problem.code];
  return key ? t(`uid.problems.${key}`, { max: MAX_UID_LENGTH }) : t('batch.preview.problems.empty');
}

/** uids with spaces at an end are kept exactly (" alice" is not "alice"): said plainly, with their lines, so they get a look. */
function EdgeSpaces({ edgeSpaces }: { edgeSpaces: BatchPreview['edgeSpaces'] }) {
  const { t, i18n } = useTranslation();
  const listed = edgeSpaces.lines.map((line) => formatNumber(line, i18n.language)).join(', ');
  const more = edgeSpaces.count - edgeSpaces.lines.length;
  const lines = more > 0 ? t('batch.preview.linesAndMore', { lines: listed, count: more }) : listed;
  return (
    <p className="callout callout--warning batch-edge-spaces" role="note">
      <span aria-hidden="true">␣ </span>
      {t('batch.preview.edgeSpaces', { count: edgeSpaces.count, formatted: formatNumber(edgeSpaces.count, i18n.language), lines })}
    </p>
  );
}

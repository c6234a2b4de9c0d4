import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MAX_PREVIEW_INVALID, type BatchPreview } from '../../../shared/batch';
import type { ReferenceProblem } from '../../../shared/reference';
import { MAX_UID_LENGTH, type UidProblem } from '../../../shared/uid';
import { VisibleUid } from '../../components/visible-uid';
import { UID_PROBLEM_KEYS } from '../users/uid-problem-keys';

/**
 * The lines of the application's list left out, each with its number, what it held and why — as the batch's preview
 * lists them — so an operator can tell a stray line from a uid the application really has.
 */
export function ReconcileInvalidLines({ preview }: { preview: BatchPreview }) {
  const { t } = useTranslation();
  const more = preview.invalidCount - Math.min(preview.invalid.length, MAX_PREVIEW_INVALID);
  return (
    <details className="reconcile-invalid" data-testid="reconcile-invalid-lines">
      <summary>{t('batch.preview.invalidHeading')}</summary>
      <ul className="reconcile-invalid__list" tabIndex={0} aria-label={t('batch.preview.invalidHeading')}>
        {preview.invalid.slice(0, MAX_PREVIEW_INVALID).map((line) => (
          <li key={line.line}>
            <span className="reconcile-invalid__line">{t('batch.preview.line', { line: line.line })}</span>
            {line.excerpt ? (
              <code className="reconcile-invalid__excerpt">
                <VisibleUid uid={line.excerpt} inline />
              </code>
            ) : null}
            <span className="reconcile-invalid__reason">{problemText(line.problem, t)}</span>
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="muted small">{t('batch.preview.invalidMore', { count: more })}</p> : null}
    </details>
  );
}

/** The single act's words for a uid rule (the core's `reason` is English), as the batch's preview words them. */
function problemText(problem: UidProblem | ReferenceProblem, t: TFunction): string {
  if (problem.code === 'reference-too-long') return t('batch.preview.problems.referenceTooLong', { length: problem.length, max: problem.max });
  if (problem.code === 'reference-invisible') return t('batch.preview.problems.referenceInvisible', { label: problem.label, character: problem.character, position: problem.position });
  const key = UID_PROBLEM_KEYS[problem.code];
  return key ? t(`uid.problems.${key}`, { max: MAX_UID_LENGTH }) : t('batch.preview.problems.empty');
}

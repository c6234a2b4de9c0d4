import { useTranslation } from 'react-i18next';
import type { BatchCheckResult } from '../../../shared/batch';
import { VisibleUid } from '../../components/visible-uid';
import { formatNumber } from '../../i18n/format';

/**
 * uids not on the service while one that differs only in capitals, accents or invisible characters inside is: a
 * likely mistake, said with the uid on the service. Nothing to click: such a uid is never sent in place of the
 * pasted one (two uids that differ so may be two people); the operator corrects the list.
 */
export function BatchLookalikes({ draftId, lookalikes }: { draftId: string; lookalikes: NonNullable<BatchCheckResult['lookalikes']> }) {
  const { t, i18n } = useTranslation();
  const more = lookalikes.count - lookalikes.sample.length;
  return (
    <section className="callout callout--warning batch-trimmable" aria-labelledby={`lookalikes-${draftId}`}>
      <h4 id={`lookalikes-${draftId}`} className="batch-trimmable__heading">
        <span aria-hidden="true">⚠ </span>
        {t('batch.check.lookalikesHeading')}
      </h4>
      <p>{t('batch.check.lookalikes', { count: lookalikes.count, formatted: formatNumber(lookalikes.count, i18n.language) })}</p>
      <ul className="batch-trimmable__list">
        {lookalikes.sample.map((item) => (
          <li key={item.line}>
            <span className="muted small">{t('batch.check.trimmableLine', { line: formatNumber(item.line, i18n.language) })}</span> <VisibleUid uid={item.uid} inline /> — {t('batch.check.lookalikeOnService')}{' '}
            {item.onService.map((uid, index) => (
              <span key={`${index}:${uid}`}>
                {index > 0 && ', '}
                <VisibleUid uid={uid} inline />
              </span>
            ))}{' '}
            <span className="muted small">({t(item.why === 'case' ? 'batch.check.lookalikeCase' : 'batch.check.lookalikeInvisible')})</span>
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted small">{t('batch.check.trimmableMore', { count: more })}</p>}
    </section>
  );
}

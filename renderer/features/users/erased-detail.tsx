import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { VisibleUid } from '../../components/visible-uid';
import { VisibleText } from '../../components/visible-text';
import { formatDateTime } from '../../i18n/format';
import { rowErasureText } from './erased-tag';
import type { RowErasure } from './use-erased-since';

/**
 * In place of the detail panel of a person an act concerned since they were shown (this console's, or one the
 * audit trail records from the command line or a batch): what happened, and no action to take again on someone
 * who may no longer exist. The notice of this console's act keeps the request id and the steps.
 */
export function ErasedDetail({ erasure, name, onClose }: { erasure: RowErasure; name?: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <aside className="detail-panel detail-panel--erased" aria-labelledby="user-detail-title">
      <div className="detail-panel__top">
        <header className="detail-panel__header">
          <div className="detail-panel__who">
            <h3 id="user-detail-title" tabIndex={-1}>
              {t('detail.title')}
            </h3>
            {name ? (
              <p className="detail-panel__name">
                <VisibleText text={name} />
              </p>
            ) : null}
            <p className="detail-panel__uid mono">
              <VisibleUid uid={erasure.uid} inline />
            </p>
          </div>
          <button type="button" className="button button--small" aria-label={t('detail.close')} onClick={onClose}>
            <span aria-hidden="true">✕</span> {t('common.close')}
          </button>
        </header>
      </div>
      <p className={`callout ${erasure.result === 'done' ? 'callout--info' : 'callout--warning'} detail-panel__erased`} role="status">
        {/* This console's own act is said by its notice too; one recorded elsewhere is named first. */}
        {erasure.via !== 'this-console' && <strong>{rowErasureText(erasure, t)}. </strong>}
        {explanation(erasure, t, i18n.language)}
      </p>
    </aside>
  );
}

function explanation(erasure: RowErasure, t: TFunction, language: string): string {
  if (erasure.result === 'not-found') return t('detail.erasedNotFound');
  if (erasure.via === 'this-console') {
    if (erasure.result === 'unknown') return t('detail.erasedUnknown');
    return t(erasure.action === 'anonymize' ? 'detail.erasedAnonymized' : 'detail.erasedDeleted');
  }
  const recorded = t(erasure.result === 'unknown' ? 'identity.erasureRecordedUnknown' : 'identity.erasureRecorded', {
    act: t(`identity.recordedAct.${erasure.action}`),
    time: erasure.at ? formatDateTime(erasure.at, language) : '—',
    via: t(`identity.recordedVia.${erasure.via}`),
  });
  return `${recorded} ${t('detail.erasedSincePage')}`;
}

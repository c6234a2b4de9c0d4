import { useTranslation } from 'react-i18next';
import { VisibleUid } from '../../components/visible-uid';
import { VisibleText } from '../../components/visible-text';
import type { ErasedMark } from '../erasure/erased-users';

/**
 * In place of the detail panel of a person an act just concerned: what happened, and no action to take
 * again on someone who may no longer exist. The notice of the act keeps the request id and the steps.
 */
export function ErasedDetail({ mark, name, onClose }: { mark: ErasedMark; name?: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const key = mark.result === 'done' ? (mark.action === 'anonymize' ? 'detail.erasedAnonymized' : 'detail.erasedDeleted') : mark.result === 'not-found' ? 'detail.erasedNotFound' : 'detail.erasedUnknown';
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
              <VisibleUid uid={mark.uid} inline />
            </p>
          </div>
          <button type="button" className="button button--small" aria-label={t('detail.close')} onClick={onClose}>
            <span aria-hidden="true">✕</span> {t('common.close')}
          </button>
        </header>
      </div>
      <p className={`callout ${mark.result === 'done' ? 'callout--info' : 'callout--warning'} detail-panel__erased`} role="status">
        {t(key)}
      </p>
    </aside>
  );
}

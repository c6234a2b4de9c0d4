import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/format';
import type { RowErasure } from './use-erased-since';

/** "Deleted from the command line", "Perhaps anonymised from this console: outcome unknown", "Not found by the service (…)". */
export function rowErasureText(erasure: RowErasure, t: TFunction): string {
  const via = t(`users.erasedVia.${erasure.via}`);
  if (erasure.result === 'not-found') return t('users.erased.notFound', { via });
  if (erasure.result === 'unknown') return t(erasure.action === 'anonymize' ? 'users.erased.unknownAnonymize' : 'users.erased.unknownDelete', { via });
  return t(erasure.action === 'anonymize' ? 'users.erased.anonymize' : 'users.erased.delete', { via });
}

/** In place of a row's actions: what happened to this user since the page was read, and when; nothing to act on. */
export function ErasedTag({ erasure }: { erasure: RowErasure }) {
  const { t, i18n } = useTranslation();
  const text = rowErasureText(erasure, t);
  return (
    <span className={`erased-tag erased-tag--${erasure.result}`} title={erasure.at ? `${text} · ${formatDateTime(erasure.at, i18n.language)}` : text}>
      <span aria-hidden="true">{erasure.result === 'done' ? '✗ ' : '⚠ '}</span>
      {text}
    </span>
  );
}

import type { TFunction } from 'i18next';
import type { Notice } from '../../state/notices-store';
import type { ErasureResult } from '../../../shared/users';
import { visibleUidText } from '../../../shared/invisible-characters';

/**
 * The notice after an erasure: what was erased, then each step — the logout sent first, and the check that
 * the old uid no longer resolves. Anything short of "sessions ended, verified" is an info notice, not a success.
 * Like every outcome of an irreversible act, it stays until dismissed.
 */
export function erasureNotice(result: ErasureResult): Pick<Notice, 'tone' | 'text'> {
  const clean = (!result.logout || result.logout.outcome === 'done') && result.verification === 'verified';
  return { tone: clean ? 'success' : 'info', text: (t) => erasureNoticeText(result, t) };
}

/** The notice's words: what was erased, then each step. */
export function erasureNoticeText(result: ErasureResult, t: TFunction): string {
  const requestId = result.requestId ?? t('erasure.noRequestId');
  const parts: string[] = [result.action === 'anonymize' ? t('erasure.successAnonymize', { uid: visibleUidText(result.uid), requestId }) : t('erasure.successDelete', { uid: visibleUidText(result.uid), requestId })];
  if (result.logout) {
    const detail = [result.logout.status !== undefined ? `${result.logout.status}` : undefined, result.logout.errorCode].filter(Boolean).join(', ');
    const outcome = result.logout.outcome;
    const options = { detail: detail || '—' };
    parts.push(
      outcome === 'done'
        ? t('erasure.stepLogoutDone')
        : outcome === 'refused'
          ? t('erasure.stepLogoutRefused', options)
          : outcome === 'not-sent'
            ? t('erasure.stepLogoutNotSent', options)
            : t('erasure.stepLogoutUnknown', options),
    );
  }
  if (result.verification === 'verified') parts.push(t('erasure.verified'));
  else if (result.verification === 'not-verified') parts.push(t('erasure.notVerified'));
  else if (result.verification === 'could-not-check') parts.push(t('erasure.couldNotCheck'));
  return parts.join(' ');
}

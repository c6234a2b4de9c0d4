import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isPrivacyDeskError, toErrorInfo } from '../../shared/errors';
import { useNotices } from '../state/notices-store';

/**
 * The act reached the service (its outcome is known or may have happened) but
 * the audit trail could not write that outcome: the one failure where
 * "try again" would be wrong.
 */
export function isUnrecordedOutcome(error: unknown): boolean {
  return isPrivacyDeskError(error) && error.code === 'AUDIT_WRITE_FAILED' && error.outcome !== 'not-sent';
}

/**
 * Whichever screen an act failed in, an outcome the trail could not record
 * raises a notice that stays until the operator dismisses it: closing the
 * dialog must not make the warning disappear.
 */
export function useUnrecordedOutcomeNotices(): void {
  const queryClient = useQueryClient();
  const push = useNotices((s) => s.push);
  const { t } = useTranslation();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error' || !isUnrecordedOutcome(event.action.error)) return;
        const info = toErrorInfo(event.action.error);
        push({
          tone: 'error',
          fades: false,
          text: (t) => `${t('audit.outcomeUnrecordedTitle')}. ${t('audit.outcomeUnrecordedBody', { outcome: t(`audit.outcomes.${info.outcome}`) })}${info.requestId ? ` (${t('common.requestId')}: ${info.requestId})` : ''}`,
        });
      }),
    [queryClient, push, t],
  );
}

import { useTranslation } from 'react-i18next';
import type { Environment } from '../state/use-profiles';

/** Text, not just colour: the environment is readable without colour vision. */
export function EnvironmentBadge({ environment }: { environment: Environment }) {
  const { t } = useTranslation();
  const label = environment === 'live' ? t('env.live') : environment === 'sandbox' ? t('env.sandbox') : t('env.local');
  return (
    <span className={`env-badge env-badge--${environment}`}>
      <span aria-hidden="true" className="env-badge__dot" />
      {label}
    </span>
  );
}

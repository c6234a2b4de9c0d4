import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import type { ErasureAction } from '../../../shared/users';
import { EnvironmentBadge } from '../../components/environment-badge';
import { hostOf, type Environment } from '../../state/use-profiles';

/** What is erased, what is kept, where, and that it is final: said before anything can be confirmed. */
export function ErasureFacts({ action, profile, environment }: { action: ErasureAction; profile: ProfileView; environment: Environment }) {
  const { t } = useTranslation();
  const host = hostOf(profile.baseUrl);
  return (
    <div className="erasure-facts">
      <div className={`erasure-env ${environment === 'live' ? 'erasure-env--live' : ''}`}>
        <span className="erasure-env__label">{t('erasure.environment')}</span>
        <EnvironmentBadge environment={environment} />
        <span className="erasure-env__where">{t('erasure.profileOn', { profile: profile.name, host })}</span>
        {environment === 'live' && (
          <p className="erasure-env__warning">
            <span aria-hidden="true">▲ </span>
            {t('erasure.liveWarning', { host })}
          </p>
        )}
      </div>
      <div className="erasure-scope">
        <div className="erasure-scope__col erasure-scope__col--erased">
          <h3>{t('erasure.erasedHeading')}</h3>
          <p>{action === 'anonymize' ? t('erasure.anonymizeErased') : t('erasure.deleteErased')}</p>
        </div>
        <div className="erasure-scope__col erasure-scope__col--kept">
          <h3>{t('erasure.keptHeading')}</h3>
          <p>{action === 'anonymize' ? t('erasure.anonymizeKept') : t('erasure.deleteKept')}</p>
        </div>
      </div>
      <p className="erasure-final">
        <span aria-hidden="true">⚠ </span>
        {t('erasure.cannotUndo')}
      </p>
    </div>
  );
}

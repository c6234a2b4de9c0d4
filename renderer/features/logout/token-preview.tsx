import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LogoutOptions } from '../../../shared/logout';
import { useBridge } from '../../bridge/bridge-context';
import { CopyButton } from '../../components/copy-button';
import { ErrorPanel } from '../../components/error-panel';
import { JsonBlock } from '../../components/json-block';
import { queryKeys } from '../../state/query-keys';
import { useDebounced } from './use-debounced';

/** The token exactly as "Send logout" would build it, rebuilt a moment after each edit. */
export function TokenPreview({ profileId, uid, options }: { profileId: string; uid: string; options?: LogoutOptions }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const input = useDebounced({ uid, options }, 300);
  const enabled = input.uid !== '' && input.options !== undefined;
  const preview = useQuery({
    queryKey: queryKeys.logoutPreview(profileId, input.uid, input.options),
    queryFn: () => bridge['logout.preview']({ profileId, uid: input.uid, options: input.options ?? {} }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });

  return (
    <section className="card token-preview" aria-labelledby="token-preview-title" aria-busy={preview.isFetching}>
      <header className="card__header">
        <h3 id="token-preview-title" className="card__title">
          {t('logout.preview')}
        </h3>
        {preview.isFetching && <span className="muted small">{t('logout.previewUpdating')}</span>}
      </header>
      {!uid ? (
        <p className="muted">{t('logout.previewEmpty')}</p>
      ) : preview.isError ? (
        <ErrorPanel title={t('logout.preview')} error={preview.error} />
      ) : preview.data ? (
        <>
          <h4 className="subheading">{t('logout.header')}</h4>
          <JsonBlock value={preview.data.header} label={t('logout.header')} />
          <h4 className="subheading">{t('logout.payload')}</h4>
          <JsonBlock value={preview.data.claims} label={t('logout.payload')} />
          <div className="subheading-row">
            <h4 className="subheading">{t('logout.token')}</h4>
            {/* Only a loopback profile's token is signed here; a live one's signature never leaves the core. */}
            {!preview.data.signatureWithheld && <CopyButton text={preview.data.token} label={t('logout.copyToken')} />}
          </div>
          <CompactToken token={preview.data.token} label={t('logout.token')} />
          {preview.data.signatureWithheld && <p className="muted small">{t('logout.signatureWithheld')}</p>}
        </>
      ) : (
        <p className="muted">{t('common.loading')}</p>
      )}
    </section>
  );
}

/** header.payload.signature, each part tinted so the structure is visible. */
export function CompactToken({ token, label }: { token: string; label: string }) {
  const [header = '', payload = '', signature = ''] = token.split('.');
  return (
    <p className="compact-token mono" data-label={label}>
      <span className="compact-token__header">{header}</span>.<span className="compact-token__payload">{payload}</span>.
      <span className="compact-token__signature">{signature}</span>
    </p>
  );
}

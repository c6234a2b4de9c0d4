import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { Field } from '../../components/field';
import { JsonBlock } from '../../components/json-block';
import { CardSection } from '../../components/card-section';
import { wordMessage } from '../../i18n/word-message';

/** Paste any logout token: decoded header and claims, and every reason it would be refused. */
export function VerifyToken({ profileId }: { profileId: string }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const [token, setToken] = useState('');
  const verify = useMutation({ mutationFn: (jwt: string) => bridge['logout.verify']({ profileId, token: jwt }) });
  const verdict = verify.data;
  return (
    <CardSection title={t('logout.verifyTitle')} hint={t('logout.verifyIntro')}>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) verify.mutate(token.trim());
        }}
      >
        <Field
          label={t('logout.verifyInput')}
          render={({ id }) => (
            <textarea id={id} className="input textarea mono" rows={3} spellCheck={false} value={token} onChange={(event) => setToken(event.target.value)} />
          )}
        />
        <div>
          <button type="submit" className="button" disabled={!token.trim() || verify.isPending}>
            {verify.isPending ? t('logout.verifying') : t('logout.verify')}
          </button>
        </div>
      </form>
      {verify.isError && <ErrorPanel title={t('logout.verifyTitle')} error={verify.error} />}
      {verdict && (
        <div className="verdict" role="status">
          <p className={`status-badge ${verdict.valid ? 'status-badge--ok' : 'status-badge--refused'}`}>
            <span aria-hidden="true">{verdict.valid ? '✓ ' : '✗ '}</span>
            {verdict.valid ? t('logout.valid') : t('logout.invalid')}
          </p>
          {verdict.problems.length > 0 && (
            <>
              <h4 className="subheading">{t('logout.problems')}</h4>
              <ul className="problems">
                {verdict.problemTexts.map((problem, index) => (
                  <li key={index}>{wordMessage(i18n, problem) ?? verdict.problems[index]}</li>
                ))}
              </ul>
            </>
          )}
          {verdict.header && (
            <>
              <h4 className="subheading">{t('logout.header')}</h4>
              <JsonBlock value={verdict.header} label={t('logout.header')} />
            </>
          )}
          {verdict.claims && (
            <>
              <h4 className="subheading">{t('logout.payload')}</h4>
              <JsonBlock value={verdict.claims} label={t('logout.payload')} />
            </>
          )}
        </div>
      )}
    </CardSection>
  );
}

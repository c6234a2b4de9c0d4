import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestView } from '../../../shared/requests';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { saveFile } from '../../components/save-file';
import { useNotices } from '../../state/notices-store';
import { bytesFromBase64 } from '../audit/receipt-button';

/**
 * A closed request's answer pack: the receipt of its acts and the letter to the requester, in the language chosen,
 * saved as two files (the app sends no e-mail). The letter names the requester only when asked.
 */
export function RequestAnswerPack({ view }: { view: RequestView }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const pushNotice = useNotices((s) => s.push);
  const ids = { language: useId(), named: useId() };
  const [language, setLanguage] = useState<'en' | 'fr'>(i18n.language.startsWith('fr') ? 'fr' : 'en');
  const [withContact, setWithContact] = useState(false);
  const pack = useMutation({
    mutationFn: () => bridge['requests.answerPack']({ id: view.id, language, withContact }),
    onSuccess: (files) => {
      saveFile({ fileName: files.receipt.fileName, mimeType: files.receipt.mimeType, content: bytesFromBase64(files.receipt.contentBase64) });
      saveFile({ fileName: files.letter.fileName, mimeType: files.letter.mimeType, content: files.letter.content });
      pushNotice({
        tone: files.chainVerified ? 'success' : 'error',
        text: (t) => t(files.chainVerified ? 'requests.pack.saved' : 'requests.pack.savedChainBroken', { receipt: files.receipt.fileName, letter: files.letter.fileName, head: files.headHash ?? t('common.none') }),
      });
    },
  });
  const named = view.requester.state === 'hidden' || view.requester.state === 'shown';
  return (
    <section className="card request-pack" aria-labelledby="request-pack-title" data-testid="answer-pack">
      <h3 id="request-pack-title" className="card__title">
        {t('requests.pack.title')}
      </h3>
      <p className="field__hint">{t('requests.pack.intro')}</p>
      <div className="request-pack__options">
        <div className="field">
          <label className="field__label" htmlFor={ids.language}>
            {t('requests.pack.language')}
          </label>
          <select id={ids.language} className="select" value={language} onChange={(e) => setLanguage(e.target.value as 'en' | 'fr')}>
            <option value="en">{t('languages.en')}</option>
            <option value="fr">{t('languages.fr')}</option>
          </select>
        </div>
        {named ? (
          <label className="checkbox" htmlFor={ids.named}>
            <input id={ids.named} type="checkbox" checked={withContact} onChange={(e) => setWithContact(e.target.checked)} />
            {t('requests.pack.withContact')}
          </label>
        ) : null}
      </div>
      <div>
        <button type="button" className="button button--primary" disabled={pack.isPending} onClick={() => pack.mutate()}>
          {pack.isPending ? t('requests.pack.making') : t('requests.pack.download')}
        </button>
      </div>
      {pack.isError ? <ErrorPanel title={t('requests.pack.failed')} error={pack.error} onRetry={() => pack.mutate()} /> : null}
    </section>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../../bridge/bridge-context';
import { saveFile } from '../../components/save-file';
import { useNotices } from '../../state/notices-store';
import { toErrorInfo } from '../../../shared/errors';
import { wordError } from '../../i18n/word-message';

/** What a receipt covers: every act under a reference, or one act. */
export type ReceiptSubject = { reference: string } | { actId: string };

/** The PDF's bytes from the base64 the bridge carries. */
export function bytesFromBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * "Receipt": asks main for the PDF receipt (drawn by the core from the trail
 * itself, in the window's language) and saves it; a notice names the file and
 * the chain head to write into the request file.
 */
export function ReceiptButton({ subject, small = false, label }: { subject: ReceiptSubject; small?: boolean; label?: string }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const pushNotice = useNotices((s) => s.push);
  const receipt = useMutation({
    mutationFn: () => bridge['audit.receipt']({ ...subject, locale: i18n.language.startsWith('fr') ? 'fr' : 'en' }),
    onSuccess: (file) => {
      saveFile({ fileName: file.fileName, mimeType: file.mimeType, content: bytesFromBase64(file.contentBase64) });
      pushNotice({
        tone: file.chainVerified ? 'success' : 'error',
        text: (t) => t(file.chainVerified ? 'receipt.saved' : 'receipt.savedChainBroken', { count: file.acts, fileName: file.fileName, head: file.headHash ?? t('common.none') }),
      });
    },
    onError: (error) => pushNotice({ tone: 'error', text: (t, i18n) => t('receipt.failed', { message: wordError(i18n, toErrorInfo(error)) }) }),
  });
  const about = 'reference' in subject ? t('receipt.forReference', { reference: subject.reference }) : t('receipt.forAct');
  return (
    <button type="button" className={small ? 'button button--small' : 'button'} onClick={() => receipt.mutate()} disabled={receipt.isPending} title={about} aria-label={`${label ?? t('receipt.button')} — ${about}`}>
      {receipt.isPending ? t('receipt.making') : (label ?? t('receipt.button'))}
    </button>
  );
}

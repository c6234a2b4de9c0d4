import { useTranslation } from 'react-i18next';
import type { BatchJobSummary } from '../../../shared/batch';
import { wordMessage } from '../../i18n/word-message';

/**
 * Who runs a job that another process runs — its pid, its computer, since when, where its lock is — in the words the
 * core and the CLI use (BatchJobSummary.holder), so the window and a terminal say the same. Nothing for a job this
 * app runs (its run is on screen), nor for one whose holder has not recorded itself yet.
 */
export function JobHolder({ job }: { job: BatchJobSummary }) {
  const { t, i18n } = useTranslation();
  if (!job.holder || job.live) return null;
  const holder = wordMessage(i18n, job.holder.text) ?? `${job.holder.pid} (${job.holder.host})`;
  return <span className="muted small block batch-holder">{t('batch.jobs.runBy', { holder })}</span>;
}

import { message, param } from '../message-text';

/** Sending a finished job's failed items again (core/batch/retry-failed.ts): refusals before a run, and why an item was not sent again. */
export const BATCH_RETRY_MESSAGES = {
  'batch.retry.noneFailed': message('Batch job {{job}} has no failed items: nothing to send again. See its results.', { job: param.text }),
  'batch.retry.unfinished': message(
    {
      one: 'Batch job {{job}} has {{count}} unfinished item: finish the job first (resume it), then send its failed items again. Nothing was sent.',
      other: 'Batch job {{job}} has {{count}} unfinished items: finish the job first (resume it), then send its failed items again. Nothing was sent.',
    },
    { job: param.text, count: param.count },
  ),
  'batch.retry.beingRun': message('Batch job {{job}} is being run right now (by this app or another Privacy Desk process): send its failed items again once that run has ended. Nothing was sent.', { job: param.text }),
  'batch.retry.phraseMismatch': message('To confirm, type {{phrase}} exactly (the operation and the number of failed items sent again). Nothing was sent.', { phrase: param.text }),
  'batch.retry.checkGone': message('The check of the failed items of batch job {{job}} is no longer here (each check is used once, by the window or command that made it). Check them again. Nothing was sent.', { job: param.text }),
  'batch.retry.changed': message('The failed items of batch job {{job}} changed since they were counted (another window or command sent or recorded some). Look at the job again and confirm anew. Nothing was sent.', { job: param.text }),
  // The results' reason of a failed item the check before sending it again did not find.
  'batch.reason.goneAtRetry': message('Not sent again: the check before sending the failed items again did not find this uid on the service (already erased, or never existed).'),
  'batch.reason.goneAtRetryDoneBefore': message('Not sent again: the check before sending the failed items again did not find this uid on the service. An earlier attempt that got no clear answer most likely erased the user.'),
} as const;

import { message, param } from '../message-text';

/** Reconciling with the client application's uid list (core/reconcile/): refusals before or after the walk. */
export const RECONCILE_MESSAGES = {
  'reconcile.noValidUid': message('No valid uid in {{source}}: nothing to reconcile. Give the application’s current uid list (a list, CSV or TSV; pick the uid column if it is not the first). Nothing was sent.', { source: param.text }),
  'reconcile.gone': message('This reconciliation is no longer kept (the app keeps the last few, in memory only, until it closes). Reconcile again.'),
  'reconcile.notAnOrphan': message('{{uid}} is not an orphan of this reconciliation: only orphans are sent to a batch from it. Nothing was sent.', { uid: param.text }),
  'reconcile.noOrphans': message('No orphan to send to a batch: every user of the service is in the application’s list, or only near-matches it.'),
} as const;

import type { DeskBatch } from '../core/batch/batch-types';
import type { Desk } from '../core/desk';
import { PrivacyDeskError } from '../shared/errors';

/** desk.batch, or a clear error when this build's core has none yet. */
export function deskBatch(desk: Desk): DeskBatch {
  const batch = (desk as Desk & { batch?: DeskBatch }).batch;
  if (!batch) throw new PrivacyDeskError({ code: 'INTERNAL', message: 'This build of Privacy Desk cannot run batches yet (no desk.batch).' });
  return batch;
}

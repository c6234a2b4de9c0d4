import { parseBatchInput, type BatchInputOptions, type BatchInputSource, type BatchInputSummary } from '../batch/parse-input';

export interface ApplicationList {
  /** Distinct valid uids, in the order of the list. */
  uids: string[];
  summary: BatchInputSummary;
}

/**
 * The client application's uid list, read exactly as a batch reads its input (core/batch/parse-input.ts: a list,
 * CSV or TSV with a column choice, streamed, each uid checked by the single-act rules, exact repeats dropped).
 * Only the uids are kept: one string each.
 */
export async function readApplicationUids(source: BatchInputSource, options: Omit<BatchInputOptions, 'referenceColumn'>): Promise<ApplicationList> {
  const uids: string[] = [];
  const summary = await parseBatchInput(source, options, (item) => {
    uids.push(item.uid);
  });
  return { uids, summary };
}

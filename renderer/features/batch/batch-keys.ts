/** The batch screen's server-state keys. */
export const batchKeys = {
  all: ['batch'] as const,
  jobs: ['batch', 'jobs'] as const,
  /** The damaged jobs of the last batch.list answer (kept beside the jobs: they are never merged with events). */
  damaged: ['batch', 'damaged'] as const,
  results: (batchId: string) => ['batch', 'results', batchId] as const,
};

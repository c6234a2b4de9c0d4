/** The batch screen's server-state keys. */
export const batchKeys = {
  all: ['batch'] as const,
  jobs: ['batch', 'jobs'] as const,
  results: (batchId: string) => ['batch', 'results', batchId] as const,
};

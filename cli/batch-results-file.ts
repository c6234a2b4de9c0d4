import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeskBatch } from '../core/batch/batch-types';
import { jobPaths } from '../core/batch/job-files';

/**
 * Writes the job's results as CSV beside its journal (`<dataDir>/batches/<id>/results.csv`, 0600,
 * replaced whole: a reader never sees half a file) and returns its path.
 */
export async function writeResultsCsv(batch: DeskBatch, dataDir: string, batchId: string): Promise<string> {
  const exported = await batch.exportResults(batchId, 'csv');
  const { dir } = jobPaths(dataDir, batchId);
  const path = join(dir, 'results.csv');
  const partial = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(partial, exported.content, { mode: 0o600 });
  renameSync(partial, path);
  return path;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { openPgBatchJobs } from '../team/pg-batch-jobs';
import { openTeamDatabase, type TeamDatabase } from '../team/team-database';
import { parseTeamDatabaseUrl } from '../team/team-url';
import { openFileBatchJobs } from './batch-job-store';
import { describeJobStore } from './test/job-store-contract';

// One suite, both stores: what desk.batch relies on holds the same in the data folder and in the team database.
describe('in the data folder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  describeJobStore('data folder files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'job-store-'));
    dirs.push(dir);
    return { runner: openFileBatchJobs(dir), other: openFileBatchJobs(dir) };
  });
});

describe.skipIf(pgSkipReason() !== null)('in the team database', () => {
  let cluster: PgCluster;
  const opened: TeamDatabase[] = [];
  let databases = 0;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });
  afterAll(async () => cluster?.destroy());

  describeJobStore('PostgreSQL', async () => {
    const address = parseTeamDatabaseUrl(await cluster.createDatabase(`jobs_${++databases}`));
    // Two pools: two desktops on one database.
    const [one, two] = await Promise.all([openTeamDatabase(address, { password: cluster.password }), openTeamDatabase(address, { password: cluster.password })]);
    opened.push(one, two);
    return { runner: openPgBatchJobs(one), other: openPgBatchJobs(two) };
  });
});

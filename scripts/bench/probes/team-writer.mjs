// One desktop writing to the team trail (forked through tsx by scripts/bench/probes/team-store.mjs): it connects, says
// it is ready, and on the word writes its acts as the erasure gate does — 'attempted', committed, then the outcome,
// committed — each append one transaction under the chain head's row lock (core/team/pg-audit-log.ts).
import { randomUUID } from 'node:crypto';
import { isoWithOffset } from '../../../core/local-time.ts';
import { openPgAuditLog } from '../../../core/team/pg-audit-log.ts';
import { openTeamDatabase } from '../../../core/team/team-database.ts';
import { parseTeamDatabaseUrl } from '../../../core/team/team-url.ts';

const { BENCH_TEAM_URL: url, PRIVACY_DESK_DATABASE_PASSWORD: password, BENCH_TEAM_ACTS: acts, BENCH_TEAM_WRITER: writer } = process.env;

const db = await openTeamDatabase(parseTeamDatabaseUrl(url), { password, maxConnections: 2, applicationName: `privacy-desk-bench-${writer}` });
const audit = openPgAuditLog(db);

process.once('message', async () => {
  const started = performance.now();
  for (let index = 0; index < Number(acts); index += 1) {
    const act = { actId: randomUUID(), action: 'anonymize', uid: `writer-${writer}-user-${index}`, reference: `BENCH-${writer}`, profileId: 'bench', profileName: 'Bench', baseUrl: 'http://127.0.0.1:4010', operator: 'bench', appVersion: 'bench', via: 'cli' };
    await audit.append({ ...act, at: isoWithOffset(new Date()), outcome: 'attempted' });
    await audit.append({ ...act, at: isoWithOffset(new Date()), outcome: 'done', status: 200 });
  }
  const ms = performance.now() - started;
  await db.close();
  process.send({ ms }, () => process.exit(0));
});
process.send({ ready: true });

import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openAuditLog } from '../../core/audit-log';
import { openPgAuditLog } from '../../core/team/pg-audit-log';
import { openTeamDatabase, type TeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';
import { auditStoreSuite, type AuditStoreKind } from './audit-store-suite';

// The same suite on the data folder's audit.jsonl and on the team database (a real PostgreSQL server, started here).
const pgSkip = pgSkipReason();
let cluster: PgCluster | undefined;
beforeAll(async () => {
  if (pgSkip === null) cluster = await startPgCluster({ fsync: false });
}, 60_000);
afterAll(async () => cluster?.destroy());

const fileKind: AuditStoreKind = {
  name: 'the data folder (audit.jsonl)',
  skip: null,
  async fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'audit-store-'));
    const store = openAuditLog(dir);
    const path = store.path;
    return {
      store,
      other: async () => openAuditLog(dir),
      async rewrite(seq, change) {
        const lines = readFileSync(path, 'utf8').split('\n');
        lines[seq - 1] = change(lines[seq - 1] ?? '');
        writeFileSync(path, lines.join('\n'));
      },
      // A folder where the file should be: every write is refused (as root, permissions would not stop it).
      async breakWrites() {
        renameSync(path, `${path}.away`);
        mkdirSync(path);
      },
      async healWrites() {
        rmSync(path, { recursive: true });
        renameSync(`${path}.away`, path);
      },
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

let databases = 0;
const pgKind: AuditStoreKind = {
  name: 'the team database (PostgreSQL)',
  skip: pgSkip,
  async fresh() {
    const running = cluster as PgCluster;
    const address = parseTeamDatabaseUrl(await running.createDatabase(`suite_${++databases}`));
    const open = () => openTeamDatabase(address, { password: running.password, connectTimeoutMs: 2_000 });
    const db = await open();
    const opened: TeamDatabase[] = [db];
    return {
      store: openPgAuditLog(db),
      async other() {
        const second = await open();
        opened.push(second);
        return openPgAuditLog(second);
      },
      // A superuser can switch the append-only trigger off: what verify must still find.
      async rewrite(seq, change) {
        const { rows } = await db.pool.query<{ line: string }>('SELECT line FROM audit_entries WHERE seq = $1', [seq]);
        await db.transaction(async (client) => {
          await client.query('ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only');
          await client.query('UPDATE audit_entries SET line = $2 WHERE seq = $1', [seq, change(rows[0]?.line ?? '')]);
          await client.query('ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_append_only');
        });
      },
      breakWrites: () => running.stopServer(),
      healWrites: () => running.startServer(),
      close: async () => void (await Promise.all(opened.map((each) => each.close().catch(() => undefined)))),
    };
  },
};

auditStoreSuite([fileKind, pgKind]);

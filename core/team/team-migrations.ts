import type { PoolClient } from 'pg';
import { Umzug, type UmzugStorage } from 'umzug';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { AUDIT_MIGRATION } from './migrations/audit';
import { AUDIT_QUERY_MIGRATION } from './migrations/audit-query';
import { BATCH_MIGRATION } from './migrations/batch';
import { REGISTER_MIGRATION } from './migrations/register';

/** One step of the team database's schema: run once, in order, inside a transaction with the others of the same upgrade. */
export interface TeamMigration {
  name: string;
  up(client: PoolClient): Promise<void>;
}

/** The schema's steps, oldest first. Never edit or reorder a step that has shipped: add one. */
export const TEAM_MIGRATIONS: readonly TeamMigration[] = [AUDIT_MIGRATION, REGISTER_MIGRATION, BATCH_MIGRATION, AUDIT_QUERY_MIGRATION];

const MIGRATIONS_TABLE = 'privacy_desk_migrations';
// Any constant both writers agree on: desktops upgrading the schema at once take turns.
const MIGRATION_LOCK = 7_310_422_001;

/** Which steps ran, kept in the database itself (umzug's storage). */
function storageIn(client: PoolClient): UmzugStorage {
  return {
    async executed() {
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY name`);
      return rows.map((row) => row.name);
    },
    async logMigration({ name }) {
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES ($1)`, [name]);
    },
    async unlogMigration({ name }) {
      await client.query(`DELETE FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [name]);
    },
  };
}

/**
 * Brings the schema up to date (umzug runs the steps not yet recorded), under an advisory lock so two desktops
 * starting at once do not both run a step, and in one transaction so a failed upgrade leaves the schema as it was.
 * A database upgraded by a newer Privacy Desk (a step this version does not know) is refused, never written to.
 */
export async function migrateTeamDatabase(client: PoolClient, where: string): Promise<string[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (name text PRIMARY KEY, run_at timestamptz NOT NULL DEFAULT now())`);
    const known = new Set(TEAM_MIGRATIONS.map((step) => step.name));
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`);
    const unknown = rows.find((row) => !known.has(row.name));
    if (unknown) throw new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('team.tooNew', { where, step: unknown.name }) });
    const umzug = new Umzug({
      migrations: TEAM_MIGRATIONS.map((step) => ({ name: step.name, up: () => step.up(client) })),
      storage: storageIn(client),
      context: {},
      logger: undefined,
    });
    await client.query('BEGIN');
    try {
      const ran = await umzug.up();
      await client.query('COMMIT');
      return ran.map((step) => step.name);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
  }
}

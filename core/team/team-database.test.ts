import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { isPrivacyDeskError } from '../../shared/errors';
import { openTeamDatabase } from './team-database';
import { TEAM_MIGRATIONS } from './team-migrations';
import { parseTeamDatabaseUrl } from './team-url';

describe('the team database address', () => {
  it('keeps a password out of the address, names user and database, and needs TLS away from this computer', () => {
    const code = (text: string) => {
      try {
        parseTeamDatabaseUrl(text);
        return 'accepted';
      } catch (error) {
        return isPrivacyDeskError(error) ? `${error.code}: ${error.message}` : String(error);
      }
    };
    expect(code('postgres://dpo:secret@db.example.org/desk')).toMatch(/INVALID_INPUT: The address holds a password/);
    expect(code('postgres://db.example.org/desk')).toMatch(/names no database user/);
    expect(code('postgres://dpo@db.example.org/')).toMatch(/names no database/);
    expect(code('mysql://dpo@db.example.org/desk')).toMatch(/is not a PostgreSQL address/);
    expect(code('postgres://dpo@db.example.org/desk?sslmode=disable')).toMatch(/must be encrypted \(TLS\)/);
    expect(code('postgres://dpo@db.example.org/desk?sslmode=prefer')).toMatch(/sslmode=prefer is not supported/);
    expect(parseTeamDatabaseUrl('postgres://dpo@db.example.org/desk')).toMatchObject({ host: 'db.example.org', port: 5432, user: 'dpo', database: 'desk', tls: true });
    expect(parseTeamDatabaseUrl('postgresql://dpo@127.0.0.1:6543/desk')).toMatchObject({ host: '127.0.0.1', port: 6543, tls: false, display: 'postgres://dpo@127.0.0.1:6543/desk' });
    expect(parseTeamDatabaseUrl('postgres://dpo@localhost/desk?sslmode=verify-full').tls).toBe(true);
  });
});

const skip = pgSkipReason();

describe.skipIf(skip !== null)('the team database on a real PostgreSQL server', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());

  it('creates its schema once, even when two desktops open it at the same moment, and says which role writes', async () => {
    const address = parseTeamDatabaseUrl(cluster.url);
    const [a, b] = await Promise.all([openTeamDatabase(address, { password: cluster.password }), openTeamDatabase(address, { password: cluster.password })]);
    try {
      expect(a.role).toBe('desk');
      const { rows } = await a.pool.query<{ name: string }>('SELECT name FROM privacy_desk_migrations ORDER BY name');
      expect(rows.map((row) => row.name)).toEqual(TEAM_MIGRATIONS.map((step) => step.name));
      await expect(a.pool.query('DELETE FROM audit_entries')).rejects.toThrow(/append-only/);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('says the database is unreachable, or refused the password, without the password in the words', async () => {
    const address = parseTeamDatabaseUrl(cluster.url);
    const wrong = await openTeamDatabase(address, { password: 'not-the-password' }).catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
    expect(String((wrong as Error).message)).toMatch(/refused the connection \(28P01\)/);
    expect(String((wrong as Error).message)).not.toContain('not-the-password');
    const nowhere = await openTeamDatabase({ ...address, port: 1 }, { password: cluster.password, connectTimeoutMs: 2_000 }).catch((error: unknown) => error);
    expect(nowhere).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
    expect(String((nowhere as Error).message)).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });

  it('refuses a database a newer Privacy Desk upgraded, writing nothing to it', async () => {
    const url = await cluster.createDatabase('newer');
    const address = parseTeamDatabaseUrl(url);
    const first = await openTeamDatabase(address, { password: cluster.password });
    await first.pool.query("INSERT INTO privacy_desk_migrations (name) VALUES ('9999-from-the-future')");
    await first.close();
    await expect(openTeamDatabase(address, { password: cluster.password })).rejects.toThrow(/upgraded by a newer Privacy Desk \(it knows step 9999-from-the-future/);
  });
});

import { hostname } from 'node:os';
import pg from 'pg';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { migrateTeamDatabase } from './team-migrations';
import type { TeamDatabaseAddress } from './team-url';

/**
 * The team database (team mode): one pool of connections to PostgreSQL, the schema brought up to date on opening,
 * and who writes (the database role, the desktop). Every store of team mode (audit trail, batch jobs, register)
 * shares it. The password comes from the caller (the keychain), is handed to the driver only, and is never kept
 * in an object this returns.
 */
export interface TeamDatabase {
  readonly pool: pg.Pool;
  /** The address as shown: postgres://USER@HOST:PORT/DB. */
  readonly where: string;
  /** The role the database says this connection writes with (current_user). */
  readonly role: string;
  /** This computer's name, as entries record it. */
  readonly desktop: string;
  /** Runs `task` in one transaction (BEGIN … COMMIT; ROLLBACK when it throws), on one connection. */
  transaction<T>(task: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenTeamDatabaseOptions {
  password: string;
  /** How long a connection attempt may take before the database counts as unreachable (default 5 s). */
  connectTimeoutMs?: number;
  /** Connections kept at most (default 4: a desktop's writes are serialised by the chain's lock anyway). */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so a DBA sees who is connected. */
  applicationName?: string;
  /**
   * How long one query may go unanswered (default 30 s): a network that drops packets without a reset would otherwise
   * keep an act waiting for its audit entry until TCP gives up, minutes later.
   */
  queryTimeoutMs?: number;
}

// Codes of PostgreSQL refusing who we are (28xxx: authorisation) as opposed to not being there.
const REFUSED = /^28/;

/** The driver's or the server's failure as a typed error: unreachable, refused, or a write not recorded; nothing was sent. */
export function teamStoreError(where: string, error: unknown, when: 'connect' | 'write' = 'write'): PrivacyDeskError {
  if (error instanceof PrivacyDeskError) return error;
  const code = (error as { code?: unknown }).code;
  const why = typeof code === 'string' ? code : error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 160) : String(error);
  const id = typeof code === 'string' && REFUSED.test(code) ? 'team.refused' : when === 'connect' ? 'team.unreachable' : 'team.writeFailed';
  return new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg(id, { where, why }) }, { cause: error });
}

export async function openTeamDatabase(address: TeamDatabaseAddress, options: OpenTeamDatabaseOptions): Promise<TeamDatabase> {
  const where = address.display;
  const pool = new pg.Pool({
    host: address.host,
    port: address.port,
    user: address.user,
    database: address.database,
    password: options.password,
    ssl: address.tls ? { rejectUnauthorized: true, servername: address.host } : false,
    max: options.maxConnections ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    query_timeout: options.queryTimeoutMs ?? 30_000,
    keepAlive: true,
    application_name: options.applicationName ?? 'privacy-desk',
  });
  // A connection the server ends while idle (a restart) is an 'error' on the pool: the next query reconnects.
  pool.on('error', () => undefined);
  let role: string;
  try {
    const client = await pool.connect();
    try {
      role = (await client.query<{ role: string }>('SELECT current_user AS role')).rows[0]?.role ?? address.user;
      await migrateTeamDatabase(client, where);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw teamStoreError(where, error, 'connect');
  }
  const desktop = safeHostname();
  return {
    pool,
    where,
    role,
    desktop,
    transaction: (task) =>
      onOneConnection(pool, 'BEGIN', task, {
        notConnected: (error) => teamStoreError(where, error, 'connect'),
        failed: (error) => (error instanceof PrivacyDeskError ? error : teamStoreError(where, error)),
      }),
    close: () => pool.end(),
  };
}

/**
 * `task` in one transaction (`begin` opens it) on one connection of the pool: COMMIT when it resolves, ROLLBACK when it
 * throws, each failure said as the caller words it. A connection lost while checked out (a cut network) is an 'error'
 * on the client, which nothing else listens to then: unheard, it would end the process; it is heard here, and a
 * connection that failed mid-transaction (perhaps half-dead) is never handed out again.
 */
export async function onOneConnection<T>(
  pool: pg.Pool,
  begin: string,
  task: (client: pg.PoolClient) => Promise<T>,
  say: { notConnected: (error: unknown) => Error; failed: (error: unknown) => Error },
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw say.notConnected(error);
  }
  let broken = false;
  const lost = () => {
    broken = true;
  };
  client.on('error', lost);
  try {
    await client.query(begin);
    const result = await task(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw say.failed(error);
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
  }
}

function safeHostname(): string {
  try {
    return hostname() || 'unknown';
  } catch {
    return 'unknown';
  }
}

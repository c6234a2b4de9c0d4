import type pg from 'pg';
import { isPrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { sha256Hex } from '../audit-chain';
import type { RegisterEventLog, RegisterLine } from '../requests/register-event-log';
import { storedEventSchema } from '../requests/register-events';
import { teamStoreError, type TeamDatabase } from './team-database';

/**
 * The team's request register events in PostgreSQL (table register_events, core/team/migrations/register.ts).
 * A writer holds a session advisory lock for the whole change: it reads the events, commits the new one (the
 * database's trigger accepts only the next number), then writes its audit entry, and only then lets go; so, as with
 * the file's lock, no other desktop's change lands between an event and the entry that vouches for it. A desktop that
 * vanishes loses its session, and the server releases the lock.
 */
// Any constant every desktop agrees on (the schema's migrations use 7_310_422_001).
export const REGISTER_LOCK = 7_310_422_002;

export interface PgRegisterEventsOptions {
  /** Who writes, recorded beside each event (the event itself names the operator as the local register does). */
  operator: string;
}

// Changes from one process take turns before taking a connection: a change holds one connection for the lock and
// needs another for its keys and its audit entry, so changes waiting on the lock must not hold the pool's others.
const turns = new WeakMap<TeamDatabase, Promise<unknown>>();
function inTurn<T>(db: TeamDatabase, task: () => Promise<T>): Promise<T> {
  const previous = turns.get(db) ?? Promise.resolve();
  const next = previous.then(task, task);
  turns.set(db, next.catch(() => undefined));
  return next;
}

/** `task` with a connection holding the team register's lock (released, and the connection given back, whatever happens). */
export function holdingRegisterLock<T>(db: TeamDatabase, task: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const where = db.where;
  return inTurn(db, async () => {
    let client: pg.PoolClient;
    try {
      client = await db.pool.connect();
    } catch (error) {
      throw teamStoreError(where, error, 'connect');
    }
    let broken = false;
    try {
      await client.query('SELECT pg_advisory_lock($1)', [REGISTER_LOCK]);
      return await task(client);
    } catch (error) {
      // A refusal of the change (invalid input) leaves the connection sound; the driver's failure may not.
      if (!isPrivacyDeskError(error)) broken = true;
      throw teamStoreError(where, error);
    } finally {
      if (!broken) await client.query('SELECT pg_advisory_unlock($1)', [REGISTER_LOCK]).catch(() => (broken = true));
      // A connection that failed may still hold the lock or be half-dead: closed, so the server lets the lock go.
      client.release(broken);
    }
  });
}

export function openPgRegisterEvents(db: TeamDatabase, options: PgRegisterEventsOptions): RegisterEventLog {
  const where = db.where;

  const readOn = async (client: pg.Pool | pg.PoolClient): Promise<RegisterLine[]> => {
    const { rows } = await client.query<{ number: string; line: string }>('SELECT number, line FROM register_events ORDER BY number');
    return rows.map((row) => ({ line: Number(row.number), text: row.line }));
  };

  return {
    where,
    damaged: (line, problem) => msg('teamRegister.eventDamaged', { event: line, where, problem }),
    read: async () => {
      try {
        return await readOn(db.pool);
      } catch (error) {
        throw teamStoreError(where, error, 'connect');
      }
    },
    locked: (task) => holdingRegisterLock(db, () => task()),
    append: (decide, after) =>
      holdingRegisterLock(db, async (client) => {
        const lines = await readOn(client);
        const decided = await decide(lines);
        if (!decided) return null;
        const written: RegisterLine = { line: (lines[lines.length - 1]?.line ?? 0) + 1, text: decided.text };
        await insertEvents(client, [written], { operator: options.operator, desktop: db.desktop });
        await after?.(written, decided.result);
        return decided.result;
      }),
  };
}

/** Commits events in one transaction, in order, each with who wrote it (the caller holds the register's lock). */
export async function insertEvents(client: pg.PoolClient, lines: readonly RegisterLine[], who: { operator: string; desktop: string }): Promise<void> {
  await client.query('BEGIN');
  try {
    for (const line of lines) {
      const event = storedEventSchema.safeParse(JSON.parse(line.text));
      const request = event.success ? event.data.request : '';
      const change = event.success ? event.data.change.kind : '';
      await client.query('INSERT INTO register_events (number, line, sha256, request_id, change, operator, desktop) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        line.line,
        line.text,
        sha256Hex(line.text),
        request,
        change,
        who.operator,
        who.desktop,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

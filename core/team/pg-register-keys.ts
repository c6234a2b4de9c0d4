import { randomBytes } from 'node:crypto';
import { registerKeyFromText, type RegisterKeyStorage } from '../requests/register-keyring';
import { teamStoreError, type TeamDatabase } from './team-database';

/**
 * The team register's keys in the team database: every desktop of the team must read the requesters' names and
 * contacts, so the register's key is not in one computer's keychain but in the table register_key, and each
 * request's data key, wrapped by it, in register_data_keys. What guards them is the database's access control (the
 * team's role) and the care taken of its backups — said in the README. What the sealing still gives: the events
 * never hold a name in plain text (nor does an export of the events table alone), and purging a request deletes its
 * data key, so its sealed values can no longer be read once backups older than the purge are gone.
 */
export function pgKeyStorage(db: TeamDatabase): RegisterKeyStorage {
  const where = db.where;
  const query = async <R extends object>(sql: string, values: unknown[], when: 'connect' | 'write' = 'write') => {
    try {
      return (await db.pool.query<R>(sql, values)).rows;
    } catch (error) {
      throw teamStoreError(where, error, when);
    }
  };
  return {
    async registerKey(create) {
      const kept = async () => registerKeyFromText((await query<{ key: string }>('SELECT key FROM register_key WHERE only_row = 1', [], 'connect'))[0]?.key);
      const found = await kept();
      if (found || !create) return found;
      // Two desktops making it at once: the first one kept wins, and both use it.
      await query('INSERT INTO register_key (only_row, key) VALUES (1, $1) ON CONFLICT (only_row) DO NOTHING', [randomBytes(32).toString('base64')]);
      return kept();
    },
    async dataKey(requestId) {
      const row = (await query<{ key_id: string; wrapped: string }>('SELECT key_id, wrapped FROM register_data_keys WHERE request_id = $1', [requestId], 'connect'))[0];
      return row ? { keyId: row.key_id, wrapped: row.wrapped } : undefined;
    },
    async saveDataKey(requestId, key) {
      await query('INSERT INTO register_data_keys (request_id, key_id, wrapped) VALUES ($1, $2, $3) ON CONFLICT (request_id) DO UPDATE SET key_id = EXCLUDED.key_id, wrapped = EXCLUDED.wrapped', [
        requestId,
        key.keyId,
        key.wrapped,
      ]);
    },
    async deleteDataKey(requestId) {
      await query('DELETE FROM register_data_keys WHERE request_id = $1', [requestId]);
    },
  };
}

import type { RegisterSettings } from '../../shared/requests';
import { loadHolidayCalendar } from '../requests/clock';
import { checkSettingsChanges, mergeRegisterSettings, parseRegisterSettings } from '../requests/register-settings';
import { teamStoreError, type TeamDatabase } from './team-database';

/**
 * The team register's settings: one row (register_settings), the same for every desktop. Not saved yet: the
 * defaults, as for a data folder without its settings file (the time zone then is this computer's).
 */
export function pgRegisterSettings(db: TeamDatabase, who: { operator: string }) {
  const place = `${db.where} (register_settings)`;
  return {
    async read(): Promise<RegisterSettings> {
      // Whoever reads the settings computes a deadline next: the calendar it needs is loaded here, once.
      await loadHolidayCalendar();
      let kept: unknown;
      try {
        kept = (await db.pool.query<{ settings: unknown }>('SELECT settings FROM register_settings WHERE only_row = 1')).rows[0]?.settings;
      } catch (error) {
        throw teamStoreError(db.where, error, 'connect');
      }
      return parseRegisterSettings(kept ?? {}, place);
    },
    /** Every given setting checked before anything is written; then all at once, under the row's lock. */
    async save(changes: Partial<RegisterSettings>): Promise<RegisterSettings> {
      await loadHolidayCalendar();
      checkSettingsChanges(changes);
      return db.transaction(async (client) => {
        const kept = (await client.query<{ settings: unknown }>('SELECT settings FROM register_settings WHERE only_row = 1 FOR UPDATE')).rows[0]?.settings;
        const next = mergeRegisterSettings(parseRegisterSettings(kept ?? {}, place), changes);
        await client.query('UPDATE register_settings SET settings = $1, changed_by = $2, desktop = $3, db_role = current_user, changed_at = now() WHERE only_row = 1', [
          JSON.stringify(next),
          who.operator,
          db.desktop,
        ]);
        return next;
      });
    },
    /** Whether settings were ever saved (an import then keeps the team's rather than the folder's). */
    async saved(): Promise<boolean> {
      try {
        const rows = (await db.pool.query<{ saved: boolean }>('SELECT settings IS NOT NULL AS saved FROM register_settings WHERE only_row = 1')).rows;
        return rows[0]?.saved === true;
      } catch (error) {
        throw teamStoreError(db.where, error, 'connect');
      }
    },
  };
}

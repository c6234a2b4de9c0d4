import type { TeamMigration } from '../team-migrations';

/**
 * What the console's paged, filtered reading of the team trail needs (core/team/pg-audit-query.ts): one index per
 * filter, each ending in seq so a page newest first is read straight from it (keyset on seq, no sort of the matches),
 * and two functions the query and the indexes share, so they agree:
 * - audit_reference_key: a reference as matchesAuditFilter compares it (shared/audit.ts): without the spaces JavaScript's
 *   trim() removes, in lower case. ICU's root lower case (as JavaScript's toLowerCase) when the server has ICU; the
 *   database's own collation otherwise.
 * - audit_act_id: the act an entry belongs to, taken from its stored line (the canonical JSON the chain hashes: no
 *   spaces, and a quote inside a text is escaped, so '"actId":"' only starts the entry's own field), so the console gets
 *   an act's other entries with the one that matched. Text functions, not a JSON parse: it can never refuse a row (it
 *   never stands in the way of an append), and it costs an append a few microseconds where a regular expression cost 100.
 */
// JavaScript's String.prototype.trim(): WhiteSpace (tab, VT, FF, space, NBSP, ZWNBSP, Zs) and LineTerminator.
const JS_TRIMMED = String.raw`E' \t\n\u000B\f\r\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'`;

export const AUDIT_QUERY_MIGRATION: TeamMigration = {
  name: '0004-audit-query',
  async up(client) {
    const { rows } = await client.query<{ icu: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') AS icu`);
    const collate = rows[0]?.icu ? ' COLLATE "und-x-icu"' : '';
    await client.query(`
      CREATE FUNCTION audit_reference_key(reference text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT lower(btrim(reference, ${JS_TRIMMED})${collate}) $$;
      CREATE FUNCTION audit_act_id(line text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT nullif(split_part(split_part(line, '"actId":"', 2), '"', 1), '') $$;
      CREATE INDEX audit_entries_uid_seq ON audit_entries (uid, seq);
      CREATE INDEX audit_entries_reference_key_seq ON audit_entries (audit_reference_key(reference), seq);
      CREATE INDEX audit_entries_profile_seq ON audit_entries (profile_id, seq);
      CREATE INDEX audit_entries_action_seq ON audit_entries (action, seq);
      CREATE INDEX audit_entries_outcome_seq ON audit_entries (outcome, seq);
      CREATE INDEX audit_entries_action_outcome_seq ON audit_entries (action, outcome, seq);
      CREATE INDEX audit_entries_day_seq ON audit_entries ((left(at, 10) COLLATE "C"), seq);
      CREATE INDEX audit_entries_act ON audit_entries (audit_act_id(line));
    `);
  },
};

import type { TeamMigration } from '../team-migrations';

/**
 * The team's one audit trail. Each row holds the entry exactly as the local trail stores its line (`line`, the
 * chained canonical JSON that `audit verify` hashes), its SHA-256 (`hash`, the next entry's prevHash), and columns
 * copied from it so the console can filter and page in the database. `audit_head` is the chain's head: a writer
 * locks that one row (SELECT … FOR UPDATE) to append, so entries from every desktop form one chain with sequence
 * numbers without gaps. Rows are never changed or removed: a trigger refuses it, whoever asks.
 */
export const AUDIT_MIGRATION: TeamMigration = {
  name: '0001-audit-trail',
  async up(client) {
    await client.query(`
      CREATE TABLE audit_entries (
        seq bigint PRIMARY KEY CHECK (seq > 0),
        line text NOT NULL,
        hash text NOT NULL,
        at text NOT NULL,
        action text,
        outcome text,
        uid text,
        reference text,
        profile_id text,
        job_id text,
        request_id text,
        via text,
        operator text,
        desktop text,
        db_role text NOT NULL DEFAULT current_user,
        written_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX audit_entries_uid ON audit_entries (uid);
      CREATE INDEX audit_entries_reference ON audit_entries (reference);
      CREATE INDEX audit_entries_job ON audit_entries (job_id);
      CREATE INDEX audit_entries_request ON audit_entries (request_id);
      CREATE INDEX audit_entries_action_outcome ON audit_entries (action, outcome);
      CREATE TABLE audit_head (
        only_row smallint PRIMARY KEY DEFAULT 1 CHECK (only_row = 1),
        seq bigint NOT NULL,
        hash text
      );
      INSERT INTO audit_head (only_row, seq, hash) VALUES (1, 0, NULL);
      CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit trail is append-only: % refused', TG_OP;
      END $$;
      CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_entries
        FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();
    `);
  },
};

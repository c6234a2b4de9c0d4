import type { TeamMigration } from '../team-migrations';

/**
 * The team's request register (core/team/pg-register-*.ts). `register_events` holds each event exactly as the local
 * register stores its line (`line`: what its audit entry's SHA-256 is of), numbered 1, 2, 3… for the whole team: a
 * writer appends under an advisory lock (core/team/pg-register-events.ts), and a trigger refuses any number but the
 * next one, so there is never a gap or a fork; rows are never changed or removed. Who wrote each: the operator, the
 * desktop and the database role. `register_settings` is the team's one row of settings (NULL: not saved yet).
 * `register_key` is the team's register key and `register_data_keys` each request's data key wrapped by it: the
 * database's access control and its backups guard them (README, "Team mode"); purging a request deletes its row.
 */
export const REGISTER_MIGRATION: TeamMigration = {
  name: '0002-register',
  async up(client) {
    await client.query(`
      CREATE TABLE register_events (
        number bigint PRIMARY KEY CHECK (number > 0),
        line text NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        request_id text NOT NULL,
        change text NOT NULL,
        operator text NOT NULL,
        desktop text NOT NULL,
        db_role text NOT NULL DEFAULT current_user,
        written_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX register_events_request ON register_events (request_id);
      CREATE FUNCTION register_events_next_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.number <> COALESCE((SELECT max(number) FROM register_events), 0) + 1 THEN
          RAISE EXCEPTION 'the request register is numbered without gaps: event % refused', NEW.number;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER register_events_next_only BEFORE INSERT ON register_events
        FOR EACH ROW EXECUTE FUNCTION register_events_next_only();
      CREATE FUNCTION register_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the request register is append-only: % refused', TG_OP;
      END $$;
      CREATE TRIGGER register_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON register_events
        FOR EACH STATEMENT EXECUTE FUNCTION register_events_append_only();
      CREATE TABLE register_settings (
        only_row smallint PRIMARY KEY DEFAULT 1 CHECK (only_row = 1),
        settings jsonb,
        changed_by text,
        desktop text,
        db_role text,
        changed_at timestamptz
      );
      INSERT INTO register_settings (only_row, settings) VALUES (1, NULL);
      CREATE TABLE register_key (
        only_row smallint PRIMARY KEY DEFAULT 1 CHECK (only_row = 1),
        key text NOT NULL,
        made_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE register_data_keys (
        request_id text PRIMARY KEY,
        key_id text NOT NULL,
        wrapped text NOT NULL
      );
    `);
  },
};

import type { TeamMigration } from '../team-migrations';

/**
 * The team's batch jobs (core/team/pg-batch-jobs.ts): what the data folder keeps in `batches/<jobId>/`, as rows.
 * - batch_jobs: the plan, written once (plan.json);
 * - batch_items: one row an item, by its index (items.jsonl);
 * - batch_events: the journal, one row an event numbered per job (journal.jsonl); a 'started' row is committed
 *   before its item is sent;
 * - batch_leases: who runs a job (run.lock + runner.json): one row a running job, taken by one statement that
 *   succeeds only when there is none or it has expired, kept alive by a heartbeat, removed when the run ends.
 *   Every journal write renews it in its own transaction, only while it is still the writer's (the fence).
 * Jobs, items and events are never changed or removed: a trigger refuses it, whoever asks.
 */
export const BATCH_MIGRATION: TeamMigration = {
  name: '0003-batch',
  async up(client) {
    await client.query(`
      CREATE TABLE batch_jobs (
        job_id text PRIMARY KEY,
        plan jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        total integer NOT NULL CHECK (total >= 0),
        desktop text NOT NULL,
        operator text NOT NULL,
        db_role text NOT NULL DEFAULT current_user,
        imported_from text,
        written_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX batch_jobs_created ON batch_jobs (created_at DESC, job_id DESC);
      CREATE TABLE batch_items (
        job_id text NOT NULL REFERENCES batch_jobs (job_id),
        idx integer NOT NULL CHECK (idx >= 0),
        item jsonb NOT NULL,
        PRIMARY KEY (job_id, idx)
      );
      CREATE TABLE batch_events (
        job_id text NOT NULL REFERENCES batch_jobs (job_id),
        seq bigint NOT NULL CHECK (seq > 0),
        item integer NOT NULL,
        kind text NOT NULL,
        event jsonb NOT NULL,
        desktop text NOT NULL,
        db_role text NOT NULL DEFAULT current_user,
        written_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (job_id, seq)
      );
      CREATE TABLE batch_leases (
        job_id text PRIMARY KEY REFERENCES batch_jobs (job_id),
        lease_id uuid NOT NULL,
        desktop text NOT NULL,
        pid integer NOT NULL,
        process_start text,
        operator text NOT NULL,
        db_role text NOT NULL DEFAULT current_user,
        started_at timestamptz NOT NULL,
        since timestamptz NOT NULL,
        paused boolean NOT NULL DEFAULT false,
        stopping boolean NOT NULL DEFAULT false,
        heartbeat_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE FUNCTION batch_rows_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'batch jobs, items and events are append-only: % on % refused', TG_OP, TG_TABLE_NAME;
      END $$;
      CREATE TRIGGER batch_jobs_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON batch_jobs
        FOR EACH STATEMENT EXECUTE FUNCTION batch_rows_append_only();
      CREATE TRIGGER batch_items_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON batch_items
        FOR EACH STATEMENT EXECUTE FUNCTION batch_rows_append_only();
      CREATE TRIGGER batch_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON batch_events
        FOR EACH STATEMENT EXECUTE FUNCTION batch_rows_append_only();
    `);
  },
};

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAuditLog } from '../../core/audit-log';
import type { RegisterAudit } from '../../core/requests/request-store-core';
import { createSessionCredentialStore, type CredentialStore } from '../../core/credential-store';
import { openPgAuditLog } from '../../core/team/pg-audit-log';
import { openPgRequestStore } from '../../core/team/pg-register-store';
import { openTeamDatabase, type TeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import type { PgCluster } from './pg-cluster';
import { openLocalRequestStore } from '../../core/requests/local-request-store';
import { REGISTER_FILE_NAME } from '../../core/requests/register-file';
import type { RequestStore } from '../../core/requests/request-store';

/**
 * One request register under test, whichever keeps it (core/requests/request-store.test.ts runs against each): a store opened
 * as a desktop would, and what a test needs of the place itself (the events as stored, everything at rest, a hand
 * that edits the events outside Privacy Desk).
 */
export interface RegisterUnderTest {
  /** A store on this register; `keyStore`: another computer's keychain (default: this test's). */
  open(options?: { keyStore?: CredentialStore; operator?: string }): RequestStore;
  /** The events' texts as stored, in order. */
  events(): Promise<string[]>;
  /** Everything kept at rest (events, keys, settings, audit trail) as one text, to look for a name in plain text. */
  atRest(): Promise<string>;
  /** The requests that have a data key kept (a purged one has none). */
  dataKeys(): Promise<string[]>;
  /** Replaces the events as someone with direct access to where they are kept would. */
  rewriteEvents(edit: (texts: string[]) => string[]): Promise<void>;
  /** Whether another computer of the same register reads the requester (the team's does; another keychain does not). */
  readonly keysShared: boolean;
  close(): Promise<void>;
}

export interface RegisterKind {
  name: string;
  make(clock: () => number): Promise<RegisterUnderTest>;
}

export const localRegister: RegisterKind = {
  name: 'the data folder (requests.jsonl)',
  async make(clock) {
    const dir = mkdtempSync(join(tmpdir(), 'requests-'));
    const keys = createSessionCredentialStore();
    const audit = openAuditLog(dir);
    const read = (name: string) => readOrEmpty(join(dir, name));
    return {
      open: (options = {}) =>
        openLocalRequestStore({ dataDir: dir, audit, keyStore: async () => options.keyStore ?? keys, operator: options.operator ?? 'dpo', via: 'cli', appVersion: 'test', now: clock }),
      events: async () => read(REGISTER_FILE_NAME).split('\n').filter(Boolean),
      atRest: async () => ['requests.jsonl', 'requests-keys.json', 'requests-settings.json', 'audit.jsonl'].map(read).join('\n'),
      rewriteEvents: async (edit) => writeFileSync(join(dir, REGISTER_FILE_NAME), `${edit(read(REGISTER_FILE_NAME).split('\n').filter(Boolean)).join('\n')}\n`),
      dataKeys: async () => Object.keys((JSON.parse(read('requests-keys.json') || '{"keys":{}}') as { keys: object }).keys),
      keysShared: false,
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

let databases = 0;

/** The team database's register, each test on a database of its own in `cluster`, with the team's audit trail there (or `auditFor`'s). */
export function teamRegister(cluster: () => PgCluster, auditFor: (db: TeamDatabase) => RegisterAudit = (db) => openPgAuditLog(db, {})): RegisterKind {
  return {
    name: 'the team database (PostgreSQL)',
    async make(clock) {
      const url = await cluster().createDatabase(`register_${process.pid}_${++databases}`);
      const address = parseTeamDatabaseUrl(url);
      const connect = () => openTeamDatabase(address, { password: cluster().password });
      const db = await connect();
      const others: TeamDatabase[] = [];
      const audit = auditFor(db);
      const rows = async (sql: string) => (await db.pool.query(sql)).rows as Array<Record<string, unknown>>;
      return {
        open: (options = {}) => {
          // Another keychain stands for another desktop: a connection of its own to the same database.
          if (options.keyStore) {
            const other = connect();
            void other.then((opened) => others.push(opened));
            return lazyStore(async () => openPgRequestStore({ db: await other, audit: auditFor(await other), operator: options.operator ?? 'dpo', via: 'cli', appVersion: 'test', now: clock }));
          }
          return openPgRequestStore({ db, audit, operator: options.operator ?? 'dpo', via: 'cli', appVersion: 'test', now: clock });
        },
        events: async () => (await rows('SELECT line FROM register_events ORDER BY number')).map((row) => String(row.line)),
        atRest: async () => {
          const tables = ['register_events', 'register_data_keys', 'register_settings', 'register_key'];
          const dumped = await Promise.all(tables.map(async (table) => JSON.stringify(await rows(`SELECT * FROM ${table}`))));
          const trail = await rows('SELECT line FROM audit_entries ORDER BY seq');
          return [...dumped, JSON.stringify(trail)].join('\n');
        },
        rewriteEvents: async (edit) => {
          const texts = edit((await rows('SELECT line FROM register_events ORDER BY number')).map((row) => String(row.line)));
          // As the database's owner would: its triggers turned off for the edit.
          await db.transaction(async (client) => {
            await client.query('ALTER TABLE register_events DISABLE TRIGGER USER');
            await client.query('DELETE FROM register_events');
            for (const [index, text] of texts.entries()) {
              await client.query("INSERT INTO register_events (number, line, sha256, request_id, change, operator, desktop) VALUES ($1, $2, repeat('0', 64), '', '', 'someone', 'elsewhere')", [index + 1, text]);
            }
            await client.query('ALTER TABLE register_events ENABLE TRIGGER USER');
          });
        },
        dataKeys: async () => (await rows('SELECT request_id FROM register_data_keys ORDER BY request_id')).map((row) => String(row.request_id)),
        keysShared: true,
        async close() {
          await Promise.all([db, ...others].map((opened) => opened.close().catch(() => undefined)));
        },
      };
    },
  };
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A store opened once its database is: every method waits for it. */
function lazyStore(opening: () => Promise<RequestStore>): RequestStore {
  const ready = opening();
  return new Proxy({} as RequestStore, {
    get: (_target, name) => async (...args: unknown[]) => {
      const store = await ready;
      return (store[name as keyof RequestStore] as (...a: unknown[]) => unknown)(...args);
    },
  });
}

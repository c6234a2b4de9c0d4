import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgAuditLog } from '../../core/team/pg-audit-log';
import { openPgRequestStore } from '../../core/team/pg-register-store';
import { openTeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';

const writerSource = join(import.meta.dirname, 'fixtures', 'team-register-writer.ts');
const skip = pgSkipReason();
const WRITERS = 4;
const EACH = 15;

describe.skipIf(skip !== null)('desktops creating requests in one team register at once (separate processes, a real PostgreSQL server)', () => {
  let cluster: PgCluster;
  let workDir: string;
  let script: string;
  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'team-register-writers-'));
    script = join(workDir, 'team-register-writer.cjs');
    // One bundle of the real core modules and pg: each writer starts in plain Node at once, so they really overlap.
    const bundling = build({ entryPoints: [writerSource], outfile: script, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', external: ['pg-native'] });
    [cluster] = await Promise.all([startPgCluster({ fsync: false }), bundling]);
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('every request gets its own id, the events are numbered without a gap, each vouched for in the one chain', async () => {
    const url = await cluster.createDatabase('register_writers');
    const db = await openTeamDatabase(parseTeamDatabaseUrl(url), { password: cluster.password });
    try {
      const writers = Array.from({ length: WRITERS }, (_, id) => {
        const child = spawn(process.execPath, [script, url, String(id), String(EACH)], { env: { ...process.env, PRIVACY_DESK_DATABASE_PASSWORD: cluster.password } });
        let stdout = '';
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const ready = new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => {
            stdout += chunk.toString();
            if (stdout.includes('ready\n')) resolve();
          });
          child.once('exit', () => reject(new Error(`writer ${id} ended before it was ready: ${stderr}`)));
        });
        ready.catch(() => undefined);
        return { child, ready, exit: once(child, 'exit').then(([code]) => ({ code, stdout: () => stdout, stderr: () => stderr })) };
      });
      await Promise.all(writers.map((writer) => writer.ready));
      // All go at once.
      for (const writer of writers) writer.child.stdin.end('go\n');
      const ends = await Promise.all(writers.map((writer) => writer.exit));
      for (const end of ends) expect({ code: end.code, stderr: end.stderr() }).toEqual({ code: 0, stderr: '' });

      const total = WRITERS * EACH;
      const { rows } = await db.pool.query<{ number: string; request_id: string; operator: string }>('SELECT number, request_id, operator FROM register_events ORDER BY number');
      expect(rows.map((row) => Number(row.number))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(rows.map((row) => row.request_id).sort()).toEqual(Array.from({ length: total }, (_, i) => `REQ-2026-${String(i + 1).padStart(4, '0')}`));
      expect(new Set(rows.map((row) => row.operator)).size).toBe(WRITERS);
      const audit = openPgAuditLog(db);
      const store = openPgRequestStore({ db, audit, operator: 'dpo', via: 'app', appVersion: 'test' });
      expect(await store.check()).toEqual({ ok: true, events: total });
      expect((await audit.verify()).ok).toBe(true);
    } finally {
      await db.close();
    }
  }, 120_000);
});

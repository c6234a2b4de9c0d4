import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../core/audit-log';

const writerSource = join(import.meta.dirname, 'fixtures', 'parallel-writer.ts');
const WRITERS = 6;
const PROFILES_EACH = 8;
const ENTRIES_EACH = 25;

/** The same link the writer puts in each entry's reference. */
function linkTo(lastLine: string | null): string {
  return `after ${createHash('sha256').update(lastLine ?? '').digest('hex').slice(0, 16)}`;
}

interface Writer {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  ready: Promise<void>;
  exit: Promise<number | null>;
}

function startWriter(writerScript: string, dataDir: string, id: number): Writer {
  const child = spawn(process.execPath, [writerScript, dataDir, String(id), String(PROFILES_EACH), String(ENTRIES_EACH)]);
  const writer: Writer = { child, stdout: '', stderr: '', ready: Promise.resolve(), exit: Promise.resolve(null) };
  writer.ready = new Promise((ready, failed) => {
    child.stdout.on('data', (chunk: Buffer) => {
      writer.stdout += chunk.toString();
      if (writer.stdout.includes('ready\n')) ready();
    });
    child.once('exit', () => failed(new Error(`writer ${id} ended before it was ready: ${writer.stderr}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => (writer.stderr += chunk.toString()));
  writer.exit = once(child, 'exit').then(([code]) => code as number | null);
  return writer;
}

describe('several processes writing to one data folder', () => {
  let workDir: string;
  let writerScript: string;
  let dataDir: string;
  beforeAll(async () => {
    // One bundle of the real core modules: each writer then starts in plain Node in tens of
    // milliseconds instead of compiling TypeScript, so they really overlap and the test stays short.
    workDir = mkdtempSync(join(tmpdir(), 'parallel-writers-'));
    writerScript = join(workDir, 'parallel-writer.cjs');
    await build({ entryPoints: [writerSource], outfile: writerScript, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));
  beforeEach(() => {
    dataDir = mkdtempSync(join(workDir, 'data-'));
  });

  it('lose no profile and no audit line, never interleave lines, and keep one valid hash chain', { timeout: 60_000 }, async () => {
    const writers = Array.from({ length: WRITERS }, (_, id) => startWriter(writerScript, dataDir, id));
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.child.stdin.end('go\n'); // all start together
    const codes = await Promise.all(writers.map((w) => w.exit));
    expect(writers.map((w) => w.stderr)).toEqual(writers.map(() => ''));
    expect(codes).toEqual(writers.map(() => 0));

    const profiles = JSON.parse(readFileSync(join(dataDir, 'profiles.json'), 'utf8')) as { activeId: string; profiles: Array<{ id: string; name: string }> };
    const expectedNames = writers.flatMap((_, w) => Array.from({ length: PROFILES_EACH }, (_, i) => `Writer ${w} profile ${i}`));
    expect(profiles.profiles.map((p) => p.name).sort()).toEqual(expectedNames.sort());
    expect(profiles.profiles.map((p) => p.id)).toContain(profiles.activeId);

    const text = readFileSync(join(dataDir, 'audit.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { uid: string; reference: string; profileId: string });
    expect(entries).toHaveLength(WRITERS * ENTRIES_EACH);
    for (let w = 0; w < WRITERS; w++) {
      // Each writer's own lines, whole and in the order it wrote them.
      const own = entries.filter((e) => e.profileId === `writer-${w}`);
      expect(own.map((e) => e.uid)).toEqual(Array.from({ length: ENTRIES_EACH }, (_, i) => `w${w}-e${i}`));
    }
    // Every entry was built from the line really before it: reading the last line and appending were one hold.
    const brokenLinks = entries.filter((entry, k) => entry.reference !== linkTo(k === 0 ? null : (lines[k - 1] ?? '')));
    expect(brokenLinks).toEqual([]);

    // One hash chain across every process: numbered 1..N in file order, each linked to the line before.
    expect(entries.map((e) => (e as { seq?: number }).seq)).toEqual(entries.map((_, k) => k + 1));
    expect(await openAuditLog(dataDir).verify()).toMatchObject({ ok: true, entries: WRITERS * ENTRIES_EACH });

    expect(readdirSync(dataDir).sort()).toEqual(['audit.jsonl', 'profiles.json']); // every lock let go, no temp file left
  });
});

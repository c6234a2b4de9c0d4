import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import keytar from 'keytar';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { linkAfter, startChain, type ChainedShape } from '../../core/audit-chain';
import { anchorAccount } from '../../core/audit-anchor';
import { openAuditLog } from '../../core/audit-log';
import { KEYCHAIN_SERVICE } from '../../core/keytar-credential-store';
import { startAppRuntime } from '../../app-runtime/app-runtime';
import type { AuditEntry, ChainVerdict } from '../../shared/audit';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { CLI_TEST_SECRET, REPO_ROOT } from './cli-harness';

/**
 * The audit trail's head kept in the real OS keychain (a throwaway gnome-keyring: scripts/with-keyring.sh), so a
 * rollback, a deleted file or a rewrite with a recomputed chain is reported without the operator having kept a
 * hash — by `audit verify` (CLI) and by the bridge's audit.verify — and the app and the CLI keep one anchor.
 */
const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED audit anchor keychain tests: PRIVACY_DESK_KEYRING is not set. Run them with: bash scripts/with-keyring.sh npx vitest run --project keychain tests/cli/audit-anchor.keychain.test.ts');

describe.skipIf(!keyring)('the audit trail anchored in the OS keychain', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  const folders: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 0, apiSecret: CLI_TEST_SECRET });
  });
  afterAll(async () => {
    await sandbox?.close();
    for (const folder of folders) {
      await keytar.deletePassword(KEYCHAIN_SERVICE, anchorAccount(folder));
      rmSync(folder, { recursive: true, force: true });
    }
  });
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-anchor-'));
    folders.push(dataDir);
  });

  const trail = () => join(dataDir, 'audit.jsonl');
  const env = (changes: Record<string, string> = {}) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
    PRIVACY_DESK_DATA_DIR: dataDir,
    PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey,
    PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret,
    NO_COLOR: '1',
    ...changes,
  });

  async function cli(args: string[], changes: Record<string, string> = {}) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from([]),
      env: env(changes) as NodeJS.ProcessEnv,
    });
    return { code, stdout, stderr };
  }
  const connection = () => ['--base-url', sandbox.url, '--app', sandbox.credentials.applicationName];
  const logout = async (uid: string) => expect((await cli(['logout', uid, ...connection()])).code).toBe(0);
  const verify = async (changes: Record<string, string> = {}) => {
    const run = await cli(['audit', 'verify', '--json'], changes);
    return { ...run, verdict: JSON.parse(run.stdout) as ChainVerdict };
  };

  it('keeps the head in the keychain entry of the data folder; verify checks it and says so', async () => {
    await logout('a');
    await logout('b');
    // Each write is announced before it lands, then confirmed once it has: the last one landed, nothing is under way.
    const stored = JSON.parse((await keytar.getPassword(KEYCHAIN_SERVICE, anchorAccount(dataDir))) ?? 'null') as { head: { seq: number; headHash: string }; next?: unknown };
    expect(stored).toMatchObject({ format: 1, head: { seq: 4 } });
    expect(stored.next).toBeUndefined();
    const { code, verdict } = await verify();
    expect(code).toBe(0);
    expect(verdict).toMatchObject({ ok: true, entries: 4, headHash: stored.head.headHash, anchor: { store: 'keychain', state: 'checked', findings: 0 } });
    const text = await cli(['audit', 'verify']);
    expect(text.stdout).toMatch(/^Verified, 4 entries, head hash [0-9a-f]{64}\.\nAnchor \(the OS keychain\): checked\.\n$/);
  });

  it('a rollback (the file replaced by an older copy) is reported, and stays reported after the next act', async () => {
    await logout('a');
    copyFileSync(trail(), join(dataDir, 'older-copy'));
    await logout('b');
    copyFileSync(join(dataDir, 'older-copy'), trail());
    const { code, verdict, stdout } = await verify();
    expect(code).toBe(1);
    expect(verdict).toMatchObject({ ok: false, kind: 'rolled-back', line: 3, anchor: { store: 'keychain', state: 'checked' } });
    expect(stdout).toContain('The last 2 entries were removed: the trail ends at entry 2, but the keychain’s anchor held entry 4');
    expect(stdout).toContain('(taken off the end, or the file replaced by an older copy)');
    // An act afterwards does not hide it: the write found it, and the anchor keeps the finding.
    await logout('c');
    const later = await verify();
    expect(later.verdict).toMatchObject({ ok: false, kind: 'rolled-back', anchor: { findings: 1 } });
    expect((later.verdict as { message: string }).message).toMatch(/^On \S+, a write found: The last 2 entries were removed: the trail ends at entry 2, but the keychain’s anchor held entry 4/);
  });

  it('a deleted trail is reported', async () => {
    await logout('a');
    rmSync(trail());
    const { code, verdict } = await verify();
    expect(code).toBe(1);
    expect(verdict).toMatchObject({ ok: false, kind: 'rolled-back', message: expect.stringMatching(/holds no chained entry, but the keychain’s anchor held entry 2 .*: all of its entries were removed \(the file deleted, emptied or replaced\)/) });
  });

  it('a deleted trail, an act, then the backup put back: every finding is listed, each with what to do, and none is said to be the verdict unless it is', async () => {
    await logout('a');
    await logout('b');
    copyFileSync(trail(), join(dataDir, 'backup'));
    rmSync(trail());
    await logout('c'); // written to a new trail, which the backup then replaces
    copyFileSync(join(dataDir, 'backup'), trail());

    const text = await cli(['audit', 'verify']);
    expect(text.code).toBe(1);
    const { verdict } = await verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'rewritten' });
    const open = verdict.anchor?.open ?? [];
    expect(open.map((o) => o.kind)).toEqual(['rewritten', 'rolled-back']);
    expect(open.every((o) => o.next !== undefined)).toBe(true);
    // The removal (the deleted file) is said, with who found it and when, as well as what this check finds now.
    const [now, earlier] = open;
    expect(text.stdout).toContain(`Open finding ${now!.finding} (found by this check): The trail is not the one the anchor vouches for`);
    expect(text.stdout).toMatch(new RegExp(`Open finding ${earlier!.finding} \\(found by a write on \\S+\\): The trail holds no chained entry, but the keychain’s anchor held entry 4 .*: all of its entries were removed`));
    expect(text.stdout.match(/^ {2}What to do: /gm)).toHaveLength(2);
    expect(text.stdout).toMatch(/Open finding [0-9a-f]{12} \(found by this check\): .*\n {2}What to do: if audit\.jsonl was replaced on purpose/);
    expect(text.stdout).toMatch(/all of its entries were removed .*\n {2}What to do: if the file was deleted, emptied or replaced by an older copy on purpose/);
    expect(text.stdout).toMatch(/^2 findings of the anchor are open:$/m);
    expect(text.stdout).not.toMatch(/the first is the verdict|shown above|Writes since have found 1 problem/);
  });

  it('a full rewrite with a recomputed chain (an act taken out) is reported', async () => {
    await logout('a');
    await logout('b');
    const entries = readFileSync(trail(), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as AuditEntry & ChainedShape);
    // The forger keeps b's act only and recomputes every link, so the chain itself verifies.
    const kept = entries.filter((entry) => entry.uid === 'b').map(({ format: _f, seq: _s, prevHash: _p, chainId: _c, before: _b, ...entry }) => entry);
    const lines: string[] = [];
    let previous: ChainedShape | null = null;
    for (const entry of kept) {
      const stored: AuditEntry & ChainedShape = { ...entry, ...(previous ? linkAfter(previous) : startChain()) } as AuditEntry & ChainedShape;
      lines.push(JSON.stringify(stored));
      previous = stored;
    }
    writeFileSync(trail(), `${lines.join('\n')}\n`);
    expect(await openAuditLog(dataDir).verify()).toMatchObject({ ok: true }); // the chain alone cannot tell
    const { code, verdict } = await verify();
    expect(code).toBe(1);
    expect(verdict).toMatchObject({ ok: false, kind: 'rewritten', message: expect.stringMatching(/rewritten with a recomputed chain, or replaced by another trail/) });
  });

  it('a first run on an existing trail adopts its head and says so; later runs compare with it', async () => {
    const log = openAuditLog(dataDir); // written with no anchor, as before anchors existed
    await log.append({ at: '2026-11-22T18:00:00.000+01:00', actId: 'x', action: 'logout', outcome: 'attempted', uid: 'old', profileId: 'p', profileName: 'P', baseUrl: 'https://x.example', via: 'cli' });
    const first = await cli(['audit', 'verify']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/\nAnchor: none was kept for this data folder, so the OS keychain keeps the trail’s head from now on, as it stands; later checks compare with it\.\n$/);
    const second = await cli(['audit', 'verify']);
    expect(second.stdout).toMatch(/\nAnchor \(the OS keychain\): checked\. It was first kept on \S+, from the trail as it stood then \(entries 1 to 1 were taken as found\)\.\n$/);
  });

  it('without a keychain the anchor is for this session only, and verify says so', async () => {
    await logout('a');
    const { verdict, stdout } = await (async () => {
      const run = await cli(['audit', 'verify'], { PRIVACY_DESK_CREDENTIAL_STORE: 'session' });
      const json = await cli(['audit', 'verify', '--json'], { PRIVACY_DESK_CREDENTIAL_STORE: 'session' });
      return { stdout: run.stdout, verdict: JSON.parse(json.stdout) as ChainVerdict };
    })();
    expect(verdict).toMatchObject({ ok: true, anchor: { store: 'session', state: 'adopted' } });
    expect(stdout).toMatch(/\nAnchor: for this session only — no keychain is in use \(PRIVACY_DESK_CREDENTIAL_STORE=session.*\), so a rollback or a rewrite of the file between sessions cannot be told\.\n$/);
  });

  it('the app and CLI commands writing the same folder at once keep one anchor; the bridge’s verify checks it', async () => {
    const runtime = await startAppRuntime({ dataDir, bundledSandbox: false, version: 'test', locale: 'en' });
    try {
      expect(runtime.desk.keychainStatus().available).toBe(true);
      const profile = await runtime.desk.saveProfile({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, apiKey: sandbox.credentials.apiKey, apiSecret: sandbox.credentials.apiSecret });
      const cliRuns = Array.from({ length: 4 }, (_, n) => spawnCli(['logout', `cli-${n}`, ...connection()]));
      const appRuns = Array.from({ length: 4 }, (_, n) => runtime.desk.sendLogout(profile.id, `app-${n}`));
      expect(await Promise.all(cliRuns)).toEqual([0, 0, 0, 0]);
      await Promise.all(appRuns);
      const bridged = await runtime.handlers['audit.verify']({});
      expect(bridged).toMatchObject({ ok: true, entries: 16, anchor: { store: 'keychain', state: 'checked', findings: 0 } });

      // The same rollback the CLI reports, the bridge reports too.
      const lines = readFileSync(trail(), 'utf8').split('\n');
      writeFileSync(trail(), `${lines.slice(0, 10).join('\n')}\n`);
      expect(await runtime.handlers['audit.verify']({})).toMatchObject({ ok: false, kind: 'rolled-back' });
      expect(await runtime.handlers['audit.read']({})).toMatchObject({ verdict: { ok: false, kind: 'rolled-back' } });
    } finally {
      await runtime.close();
    }
  });

  /** The CLI as a child process (another process on the same folder), built from the sources by tsx-free node: the bundle. */
  function spawnCli(args: string[]): Promise<number> {
    return new Promise((resolve) => {
      execFile(process.execPath, [join(REPO_ROOT, 'node_modules', '.cache', 'anchor-cli', 'main.js'), ...args], { env: { ...process.env, ...env() } }, (error) => {
        resolve(error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : -1) : 0);
      });
    });
  }
  beforeAll(async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', join(REPO_ROOT, 'node_modules', '.cache', 'anchor-cli')], { cwd: REPO_ROOT, stdio: 'pipe' });
  }, 120_000);
});

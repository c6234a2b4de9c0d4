import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = join(import.meta.dirname, 'main.ts');
let dataDir: string;
let staticDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-web-main-'));
  staticDir = await mkdtemp(join(tmpdir(), 'privacy-desk-web-main-static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Privacy Desk</title>');
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(staticDir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir };
}

/** Resolves with stdout once a line starting with `Open: ` has been printed. */
function waitForOpenLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no "Open:" line within 15 s; stdout: ${out} stderr: ${err}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^Open: .+$/m.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}; stderr: ${err}`)));
  });
}

describe('npm run web (web-host/main.ts)', () => {
  it('prints the address with its token on a line of its own, serves it, and stops cleanly on SIGTERM with its sandbox', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--static-dir', staticDir], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const out = await waitForOpenLine(child);
      const open = /^Open: (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43})$/m.exec(out);
      expect(open, out).not.toBeNull();
      const sandboxUrl = /^Sandbox: (http:\/\/127\.0\.0\.1:\d+) /m.exec(out)?.[1];
      expect(sandboxUrl, out).toBeDefined();

      const url = new URL(open![1]!);
      expect((await fetch(url.origin)).status).toBe(200);
      const token = url.hash.slice('#token='.length);
      const info = await fetch(`${url.origin}/bridge/app.info`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': token }, body: '{}' });
      expect(await info.json()).toMatchObject({ ok: true, value: { sandboxUrl } });

      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`${sandboxUrl}/sandbox/`)).rejects.toThrow();
      await expect(fetch(url.origin)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('does not start the sandbox with --no-sandbox', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--no-sandbox', '--static-dir', staticDir], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const out = await waitForOpenLine(child);
      expect(out).toMatch(/^Sandbox: not started$/m);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a bad option with exit code 2 and says why', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', MAIN, '--port', 'eighty'], { env: env(), encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^INVALID_INPUT: --port must be a whole number/m);
    const unknown = spawnSync(process.execPath, ['--import', 'tsx', MAIN, '--bind', '0.0.0.0'], { env: env(), encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--bind');
  });
});

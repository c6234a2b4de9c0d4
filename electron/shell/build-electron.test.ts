import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES } from '../../shared/bridge-methods';

const ROOT = join(import.meta.dirname, '..', '..');
let outdir: string;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'privacy-desk-electron-build-'));
  // The real build script, without the Electron binary (none on this machine).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs'), '--outdir', outdir], { cwd: ROOT, stdio: 'pipe' });
}, 60_000);

afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

/** Modules the bundle still loads at run time (code, not strings inside generated code, nor a bundled package's doc comments). */
function runtimeRequires(code: string): string[] {
  const codeLines = code.split('\n').filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line));
  return [...new Set(codeLines.flatMap((line) => [...line.matchAll(/(?<![`'"\w.])require\("([^"]+)"\)/g)].map((m) => m[1]!)))];
}

describe('scripts/build-electron.mjs', () => {
  it('bundles the main process with only electron, keytar (native), pdfkit (reads its font files at run time), date-holidays (loaded by the register’s clock only) and pg-native (pg’s optional native client, never asked for) left outside', async () => {
    const main = await readFile(join(outdir, 'main.cjs'), 'utf8');
    const packages = runtimeRequires(main).filter((name) => !isBuiltin(name));
    expect(packages.sort()).toEqual(['date-holidays', 'electron', 'keytar', 'pdfkit', 'pg-native']);
  });

  it('bundles a preload that needs nothing but electron', async () => {
    const preload = await readFile(join(outdir, 'preload.cjs'), 'utf8');
    expect(runtimeRequires(preload)).toEqual(['electron']);
  });

  /** Runs the built preload with a fake electron; answers what it exposed and what it did. */
  async function runPreload() {
    const preload = await readFile(join(outdir, 'preload.cjs'), 'utf8');
    const exposed: Record<string, unknown> = {};
    const invoked: unknown[][] = [];
    const ipcListeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>();
    const fakeElectron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: async (channel: string, input: unknown) => {
          invoked.push([channel, input]);
          if (channel === 'privacy-desk:audit.list') throw new Error('main process gone');
          return { ok: true, value: 'answer' };
        },
        on: (channel: string, listener: (event: unknown, payload: unknown) => void) => ipcListeners.set(channel, [...(ipcListeners.get(channel) ?? []), listener]),
        removeListener: (channel: string, listener: unknown) => ipcListeners.set(channel, (ipcListeners.get(channel) ?? []).filter((l) => l !== listener)),
      },
    };
    const require = (name: string) => {
      if (name !== 'electron') throw new Error(`preload required ${name}`);
      return fakeElectron;
    };
    runInNewContext(preload, { require, module: { exports: {} }, exports: {} });
    /** What main's webContents.send(channel, payload) does in the window. */
    const sendFromMain = (channel: string, payload: unknown) => {
      for (const listener of ipcListeners.get(channel) ?? []) listener({ sender: 'the ipcRenderer object' }, payload);
    };
    return { exposed, invoked, ipcListeners, sendFromMain };
  }

  it('the preload exposes one named function per bridge method, each invoking its own channel', async () => {
    const { exposed, invoked } = await runPreload();
    expect(Object.keys(exposed)).toEqual(['privacyDesk']);
    const api = exposed.privacyDesk as Record<string, (input?: unknown) => Promise<unknown>>;
    expect(Object.keys(api)).toEqual([...BRIDGE_METHOD_NAMES, 'events']);
    for (const method of BRIDGE_METHOD_NAMES) expect(typeof api[method]).toBe('function');

    expect(await api['users.list']!({ profileId: 'p', page: 2 })).toEqual({ ok: true, value: 'answer' });
    expect(invoked).toEqual([['privacy-desk:users.list', { profileId: 'p', page: 2 }]]);
    // Never rejects: a failed invoke becomes an ok:false answer.
    expect(await api['audit.list']!({})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('the preload exposes one named subscription per event: payload only, and a function that ends it', async () => {
    const { exposed, ipcListeners, sendFromMain } = await runPreload();
    const events = (exposed.privacyDesk as { events: Record<string, (listener: unknown) => () => void> }).events;
    expect(Object.keys(events)).toEqual([...BRIDGE_EVENT_NAMES]);

    const received: unknown[][] = [];
    const stop = events['job.progress']!((...args: unknown[]) => received.push(args));
    expect([...ipcListeners.keys()]).toEqual(['privacy-desk-event:job.progress']);
    sendFromMain('privacy-desk-event:job.progress', { jobId: 'j', page: 1 });
    sendFromMain('privacy-desk-event:job.finished', { jobId: 'j' }); // nobody subscribed to this one
    expect(received).toEqual([[{ jobId: 'j', page: 1 }]]); // never Electron's event object

    stop();
    sendFromMain('privacy-desk-event:job.progress', { jobId: 'j', page: 2 });
    expect(received).toHaveLength(1);
    expect(ipcListeners.get('privacy-desk-event:job.progress')).toEqual([]);
    expect(() => events['job.finished']!('not a function')).toThrow(/needs a function/); // a TypeError of the preload's realm
  });
});

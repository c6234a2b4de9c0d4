import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES } from '../../shared/bridge-methods';
import { CONTENT_SECURITY_POLICY } from '../../shared/security-headers';

/**
 * The built main process (dist/electron/main.cjs as `npm run build:electron` makes it),
 * run in Node with a fake `electron` module: main-process.harness.mjs drives it and
 * reports what it did. Covers the wiring that the pure-function tests cannot.
 */
const ROOT = join(import.meta.dirname, '..', '..');
let work: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the harness's JSON report
let report: any;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'privacy-desk-main-process-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs'), '--outdir', join(work, 'electron')], { cwd: ROOT, stdio: 'pipe' });
  await mkdir(join(work, 'renderer'));
  await writeFile(join(work, 'renderer', 'index.html'), '<!doctype html><title>Privacy Desk</title>');
  const output = execFileSync(process.execPath, [join(import.meta.dirname, 'main-process.harness.mjs'), join(work, 'electron', 'main.cjs')], {
    env: { ...process.env, PRIVACY_DESK_DATA_DIR: join(work, 'data') },
    encoding: 'utf8',
    timeout: 30_000,
  });
  report = JSON.parse(output);
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('Electron main process (built bundle, fake electron)', () => {
  it('opens one locked-down window on the app:// origin', () => {
    expect(report.windows).toHaveLength(1);
    expect(report.windows[0].webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, disableBlinkFeatures: 'Auxclick' });
    expect(report.windows[0].webPreferences.preload).toBe(join(work, 'electron', 'preload.cjs'));
    expect(report.loadedUrl).toBe('app://privacy-desk/index.html');
    expect(report.schemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    expect(report.userData.path).toBe(join(work, 'data', 'electron'));
  });

  it('serves the built window with the CSP, and nothing outside it', () => {
    expect(report.protocol.index).toMatchObject({ status: 200, csp: CONTENT_SECURITY_POLICY, type: 'text/html; charset=utf-8' });
    expect(report.protocol.index.body).toContain('<title>Privacy Desk</title>');
    expect(report.protocol.missing.status).toBe(404);
    expect(report.protocol.traversal.status).toBe(404);
    expect(report.protocol.post.status).toBe(405);
  });

  it('denies every permission', () => {
    expect(report.permissionGranted).toBe(false);
    expect(report.permissionCheck).toBe(false);
  });

  it('registers one IPC channel per bridge method and answers our window', () => {
    expect(report.ipcChannels).toEqual(BRIDGE_METHOD_NAMES.map((m) => `privacy-desk:${m}`));
    expect(report.ipc.appInfo).toMatchObject({ ok: true, value: { version: '1.2.3', locale: 'fr-FR', sandboxUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) } });
    expect(report.ipc.users).toMatchObject({ ok: true, value: { perPage: 2 } });
    expect(report.ipc.users.value.users).toHaveLength(2);
    expect(report.netFetchUsed).toBe(true); // the core's requests went through Electron's net.fetch
    expect(report.ipc.badInput).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('refuses other windows, iframes and foreign pages', () => {
    for (const refused of [report.ipc.otherWindow, report.ipc.iframe, report.ipc.foreignPage]) {
      expect(refused).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('the preload offers one named subscription per event, and a walk started through it reports every page', () => {
    expect(report.jobs.eventNames).toEqual([...BRIDGE_EVENT_NAMES]);
    const { started, finished, progress, pagesAsked } = report.jobs.walk;
    expect(started).toMatchObject({ ok: true, value: { jobId: expect.any(String) } });
    expect(progress).toEqual([
      [1, 5, 100],
      [2, 5, 200],
      [3, 5, 300],
      [4, 5, 400],
      [5, 5, 500],
    ]);
    expect(finished).toMatchObject({ jobId: started.value.jobId, kind: 'users.walk', status: 'completed', result: { users: 500, pages: 5 } });
    expect(pagesAsked).toEqual([1, 2, 3, 4, 5]);
  });

  it('jobs.cancel stops a walk between pages', () => {
    const { answer, finished, progress, pagesAsked, again } = report.jobs.cancel;
    expect(answer).toEqual({ ok: true, value: { cancelled: true } });
    expect(finished).toMatchObject({ kind: 'users.walk', status: 'cancelled' });
    expect(progress.map(([page]: number[]) => page)).toEqual([1, 2]); // page 2 was already asked for; page 3 never is
    expect(pagesAsked).toEqual([1, 2]);
    expect(again).toEqual({ ok: true, value: { cancelled: false } });
  });

  it('sends events only to our window while it shows our page, on the named event channels', () => {
    expect(report.jobs.sentToStranger).toBe(0);
    expect(report.jobs.foreignPage.sentWhileForeign).toBe(0);
    expect(report.jobs.foreignPage.progressPages).toEqual([2, 3, 4, 5]); // page 1 went by while it showed evil.example
    expect(report.jobs.foreignPage.finished).toMatchObject({ status: 'completed' });
    expect(report.jobs.channelsSentToOurWindow).toEqual(BRIDGE_EVENT_NAMES.map((name) => `privacy-desk-event:${name}`).sort());
  });

  it('denies new windows (https links go to the OS browser), foreign navigation and webviews', () => {
    expect(report.windowOpen).toEqual({ https: { action: 'deny' }, file: { action: 'deny' } });
    expect(report.externalOpened).toEqual(['https://docs.example.org/']);
    expect(report.navigationBlocked).toEqual({ foreign: true, app: false, redirect: true, webview: true });
  });

  it('lets only the window\'s own blobs download (exports, through the system save dialog) and cancels every other download', () => {
    expect(report.downloads).toEqual({ handled: true, ownBlob: 'allowed', foreignBlob: 'cancelled', remote: 'cancelled', appFile: 'cancelled' });
  });

  it('shows the edit menu and stops the bundled sandbox before quitting', () => {
    expect(report.menuLabels).toContain('&Edit');
    expect(report.quitted).toBe(true);
    expect(report.sandboxStoppedOnQuit).toBe(true);
  });
});

// The console on a large team trail (used by scripts/bench/probes/team-store.mjs): a loopback web host (as
// `npm run web`, the built renderer) whose data folder is connected to the team database through team.connect, then
// Chromium: the Audit trail tab clicked until its first rows are drawn, a uid typed until its entries are, a scroll
// to the last rows read until the next page is drawn; and the longest task meanwhile (a PerformanceObserver).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createSessionCredentialStore } from '../../../core/credential-store.ts';
import { startWebHost } from '../../../web-host/web-host.ts';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const CHROMIUM = { executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined, chromiumSandbox: false, args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'] };
const VIEWPORT = { width: 1360, height: 860 };

const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** Opens the console on `databaseUrl` and times what an operator waits for; `uid` is one the trail holds. */
export async function measureTeamConsole({ databaseUrl, password, uid }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-team-console-'));
  const store = createSessionCredentialStore();
  const host = await startWebHost({ port: 0, dataDir, bundledSandbox: false, staticDir: 'dist/renderer', version: 'bench', openCredentials: async () => ({ store }) });
  let browser;
  try {
    const answer = await fetch(`${host.origin}/bridge/team.connect`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token },
      body: JSON.stringify({ databaseUrl, password }),
    });
    const body = await answer.json();
    if (!body.ok) throw new Error(`team.connect: ${body.error?.message ?? answer.status}`);
    browser = await chromium.launch(CHROMIUM);
    const page = await (await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' })).newPage();
    await page.addInitScript(() => {
      window.benchLongTasks = [];
      new PerformanceObserver((list) => window.benchLongTasks.push(...list.getEntries().map((task) => task.duration))).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(host.url);
    await page.getByRole('tab', { name: 'Audit trail' }).waitFor();
    const from = await page.evaluate(() => window.benchLongTasks.length);

    let started = process.hrtime.bigint();
    await page.getByRole('tab', { name: 'Audit trail' }).click();
    const table = page.getByRole('table', { name: 'Audit trail entries' });
    await table.getByRole('row').nth(5).waitFor();
    const openMs = since(started);

    // To the last rows read: the next page is asked for and drawn below them.
    const before = await table.getAttribute('aria-rowcount');
    started = process.hrtime.bigint();
    await table.evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await page.waitForFunction((rows) => document.querySelector('[aria-label="Audit trail entries"]')?.getAttribute('aria-rowcount') !== rows, before);
    const nextPageMs = since(started);

    started = process.hrtime.bigint();
    await page.getByLabel('uid', { exact: true }).fill(uid);
    await page.getByText(/match(es)? these filters/).waitFor();
    await table.getByText(uid, { exact: true }).first().waitFor();
    const filterMs = since(started);

    const tasks = await page.evaluate((first) => window.benchLongTasks.slice(first), from);
    return { openMs, nextPageMs, filterMs, longestTaskMs: Math.max(0, ...tasks) };
  } finally {
    await browser?.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

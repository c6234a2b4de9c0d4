// The console in Chromium (run through tsx by scripts/bench/parts/renderer.mjs): the loopback web host as
// `npm run web` serves it (the built renderer, dist/renderer), a profile on the bench's sandbox, and an audit
// trail of N entries written through the core's audit log beforehand. Each round opens a new browser context
// and times, from the test's side, what an operator waits for: the first users page, the next page, and the
// audit view; a PerformanceObserver in the page records the long tasks (over 50 ms) of the audit view,
// opening it and scrolling it from top to bottom.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { openAuditLog } from '../../../core/audit-log.ts';
import { anchorInCredentialStore } from '../../../core/audit-anchor.ts';
import { createSessionCredentialStore } from '../../../core/credential-store.ts';
import { startWebHost } from '../../../web-host/web-host.ts';
import { serveProbe } from '../probe-process.mjs';

// The launch the e2e suite uses (playwright.config.ts): Debian's Chromium when it is there, Playwright's otherwise.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const CHROMIUM = { executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined, chromiumSandbox: false, args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'] };
const VIEWPORT = { width: 1360, height: 860 };
const ENTRIES_PER_WRITE = 1000;
const SCROLL_STEPS = 20;

let dataDir;
let host;
let browser;

/**
 * The trail a busy operator leaves: acts of five entries each, as the console writes them for "log out, then
 * anonymise" (attempted and done for the logout, attempted and done for the erasure, the check afterwards),
 * written in groups through appendMany (one write and one fsync a group, the chain and its anchor as always).
 */
async function seedAudit(store, { entries, baseUrl }) {
  const log = openAuditLog(dataDir, { anchor: anchorInCredentialStore(store, dataDir) });
  const started = Date.parse('2026-01-05T09:00:00Z');
  const acts = Math.ceil(entries / 5);
  let written = 0;
  let group = [];
  for (let act = 0; act < acts && written < entries; act += 1) {
    const at = new Date(started + act * 37_000).toISOString();
    const base = { at, actId: `bench-act-${act}`, uid: `user-${act}@example.org`, reference: `REQ-${1000 + (act % 400)}`, profileId: 'bench', profileName: 'Bench', baseUrl, operator: 'bench', appVersion: 'bench', via: 'app' };
    const steps = [
      { ...base, action: 'logout', outcome: 'attempted' },
      { ...base, action: 'logout', outcome: 'done', status: 200, requestId: `r-${act}-1` },
      { ...base, action: 'anonymize', outcome: 'attempted' },
      { ...base, action: 'anonymize', outcome: 'done', status: 200, requestId: `r-${act}-2` },
      { ...base, action: 'anonymize', outcome: 'verification', verification: 'verified' },
    ].slice(0, entries - written);
    group.push(...steps);
    written += steps.length;
    if (group.length >= ENTRIES_PER_WRITE) {
      await log.appendMany(group);
      group = [];
    }
  }
  if (group.length > 0) await log.appendMany(group);
  await log.settle();
  const lines = readFileSync(log.path, 'utf8').split('\n').filter(Boolean).length;
  if (lines !== entries) throw new Error(`The audit trail has ${lines} entries, not ${entries}.`);
}

async function bridge(method, input) {
  const answer = await fetch(`${host.origin}/bridge/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token },
    body: JSON.stringify(input),
  });
  const body = await answer.json();
  if (!body.ok) throw new Error(`${method}: ${body.error?.message ?? answer.status}`);
  return body.value;
}

const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** Resolves once the users table of `page` shows `rows` rows. */
const usersRows = (page, number, rows) => page.getByRole('table', { name: `Users on page ${number}` }).locator('tbody tr').nth(rows - 1).waitFor();

serveProbe({
  async setup({ sandbox, entries }) {
    dataDir = mkdtempSync(join(process.env.BENCH_WORK ?? tmpdir(), 'renderer-'));
    // One session store for the trail's anchor and the host, as one app would hold them.
    const store = createSessionCredentialStore();
    await seedAudit(store, { entries, baseUrl: sandbox.url });
    host = await startWebHost({ port: 0, dataDir, bundledSandbox: false, staticDir: 'dist/renderer', version: 'bench', openCredentials: async () => ({ store }) });
    const profile = await bridge('profiles.save', { name: 'Bench', baseUrl: sandbox.url, applicationName: sandbox.applicationName, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret });
    await bridge('profiles.setActive', { id: profile.id });
    browser = await chromium.launch(CHROMIUM);
    return {};
  },

  async measure() {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' });
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        window.benchLongTasks = [];
        new PerformanceObserver((list) => window.benchLongTasks.push(...list.getEntries().map((task) => ({ start: task.startTime, duration: task.duration })))).observe({ type: 'longtask', buffered: true });
      });
      let started = process.hrtime.bigint();
      await page.goto(host.url);
      await usersRows(page, 1, 25);
      const firstPageMs = since(started);

      started = process.hrtime.bigint();
      await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next page' }).click();
      await usersRows(page, 2, 25);
      const pageSwitchMs = since(started);

      const auditFrom = await page.evaluate(() => performance.now());
      started = process.hrtime.bigint();
      await page.getByRole('tab', { name: 'Audit trail' }).click();
      const table = page.getByRole('table', { name: 'Audit trail entries' });
      await table.getByRole('row').nth(5).waitFor();
      const auditOpenMs = since(started);
      // From top to bottom in steps, each drawn before the next, as a hand on the scroll bar would.
      await table.evaluate(async (box, steps) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        for (let step = 1; step <= steps; step += 1) {
          box.scrollTop = (box.scrollHeight * step) / steps;
          await frame();
        }
      }, SCROLL_STEPS);
      // A long task still running is reported once it ends: give it a moment.
      await page.waitForTimeout(300);
      const tasks = await page.evaluate((from) => window.benchLongTasks.filter((task) => task.start >= from), auditFrom);
      const durations = tasks.map((task) => task.duration);
      return {
        firstPageMs,
        pageSwitchMs,
        auditOpenMs,
        longestTaskMs: Math.max(0, ...durations),
        tasksOver100ms: durations.filter((duration) => duration > 100).length,
      };
    } finally {
      await context.close();
    }
  },

  async close() {
    await browser?.close();
    await host?.close();
    rmSync(dataDir, { recursive: true, force: true });
    return {};
  },
});

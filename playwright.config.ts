import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Playwright's own browser download is unreachable on our machines: use
// Debian's Chromium when it is there, Playwright's browser otherwise.
const systemChromium = '/usr/bin/chromium';
const executablePath = existsSync(systemChromium) ? systemChromium : undefined;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  forbidOnly: true,
  // Most of a test is waiting (the sandbox, the clock, Chromium): four keep two cores busy (6.1 min with two, 4.3 with four).
  workers: 4,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    // A failed test keeps its trace: every action with the page's DOM before and after, network and console. Without
    // the film strip of screenshots, which cost about a tenth of the suite's CPU time; `--trace on` records everything.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    viewport: { width: 1360, height: 860 },
    locale: 'en-GB',
    launchOptions: {
      executablePath,
      args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
      chromiumSandbox: false,
    },
  },
  projects: [
    { name: 'web', testIgnore: /electron\.spec\.ts$/ },
    { name: 'electron', testMatch: /electron\.spec\.ts$/ },
  ],
});

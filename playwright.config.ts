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
    // No trace: recording one for every test (to keep it when one fails) cost a sixth of the suite's time. A failed
    // test keeps its screenshot and the page's accessibility tree (error-context.md); to see every action with the
    // DOM before and after, network and console, run it again with `--trace retain-on-failure`.
    trace: 'off',
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

import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** Fixed folder so the lead can look at every screen after a run. */
export const SCREENSHOT_DIR = resolve('test-results/screenshots');

/** Saves a full-page screenshot as test-results/screenshots/<screen>-<theme>.png and attaches it to the report. */
export async function saveScreenshot(page: Page, testInfo: TestInfo, screen: string, theme: 'light' | 'dark', options: { fullPage?: boolean } = {}): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = resolve(SCREENSHOT_DIR, `${screen}-${theme}.png`);
  // Let transitions and fonts settle: a half-faded dialog is not what the operator sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // A modal covers only the viewport, so a full-page shot of an open dialog would show a half-dimmed page.
  await page.screenshot({ path, fullPage: options.fullPage ?? true, animations: 'disabled' });
  await testInfo.attach(`${screen}-${theme}`, { path, contentType: 'image/png' });
}

/**
 * The WCAG 2 A/AA rules whose verdict depends on colours: all a change of theme can change, since a theme only sets
 * colours (the same page in the other theme has the same elements, names, roles and layout).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * WCAG 2 A/AA through axe; only serious and critical findings fail, each described so the report says what to fix.
 * `colours`: the page was just scanned in full in the other theme, so only the rules a theme can change run.
 */
export async function expectNoSeriousAxeViolations(page: Page, testInfo: TestInfo, screen: string, scope: 'all' | 'colours' = 'all'): Promise<void> {
  // The same rules on the same page, about five times faster: only violations are gathered (passes are never read),
  // and axe runs in the page itself rather than in a blank page opened for every scan, which only cross-origin
  // frames need (the console has none).
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  const results = await (scope === 'colours' ? builder.withRules(COLOUR_RULES) : builder.withTags(['wcag2a', 'wcag2aa'])).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const described = serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`);
  if (results.violations.length > 0) {
    await testInfo.attach(`axe-${screen}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  }
  expect(described, `axe found serious/critical WCAG problems on the ${screen} screen`).toEqual([]);
}

/** The console's countdown before an erasure is sent (ERASURE_COUNTDOWN_SECONDS in the renderer). */
export const COUNTDOWN_SECONDS = 5;

/**
 * Installs Playwright's clock in the page and holds it still: from here on the countdown moves only when
 * the test moves it, however fast or slow the machine is. pauseAt needs a moment the page has not reached
 * yet; a minute ahead leaves room on a busy machine (as if the operator waited a minute before confirming).
 */
export async function holdPageClock(page: Page): Promise<void> {
  await page.clock.install();
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(pageNow + 60_000);
}

/**
 * Moves the held clock through the countdown one second at a time, checking each number the operator
 * sees (each tick renders before the next one is scheduled), then lets time run again for the request.
 */
export async function runCountdown(page: Page, dialog: Locator, beforeLastSecond?: () => Promise<void>): Promise<void> {
  const timer = dialog.getByRole('timer');
  for (let seconds = COUNTDOWN_SECONDS; seconds >= 1; seconds -= 1) {
    await expect(timer).toContainText(`Sending in ${seconds} s`);
    if (seconds === 1) await beforeLastSecond?.();
    await page.clock.runFor(1000);
  }
  await page.clock.resume();
}


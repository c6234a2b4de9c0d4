import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

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

/** WCAG 2 A/AA through axe; only serious and critical findings fail, each described so the report says what to fix. */
export async function expectNoSeriousAxeViolations(page: Page, testInfo: TestInfo, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const described = serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`);
  if (results.violations.length > 0) {
    await testInfo.attach(`axe-${screen}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  }
  expect(described, `axe found serious/critical WCAG problems on the ${screen} screen`).toEqual([]);
}

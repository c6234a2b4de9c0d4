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

/** The erasure dialog's words as a test reads them: English unless a test gives another language's. */
export interface ErasureDialogWords {
  rowAnonymise: (uid: string) => string;
  title: (uid: string) => string;
  typeUid: string;
  reference: string;
  confirm: string;
  countdown: (seconds: number) => string;
}

export const ENGLISH_ERASURE_WORDS: ErasureDialogWords = {
  rowAnonymise: (uid) => `Anonymise ${uid}`,
  title: (uid) => `Anonymise user ${uid}`,
  typeUid: 'Type the uid to confirm',
  reference: 'Reference',
  confirm: 'Confirm',
  countdown: (seconds) => `Sending in ${seconds} s`,
};

/**
 * Moves the held clock through the countdown one second at a time, checking each number the operator
 * sees (each tick renders before the next one is scheduled), then lets time run again for the request.
 * `countdown`: what the timer says, in the window's language.
 */
export async function runCountdown(page: Page, dialog: Locator, beforeLastSecond?: () => Promise<void>, countdown = ENGLISH_ERASURE_WORDS.countdown): Promise<void> {
  const timer = dialog.getByRole('timer');
  for (let seconds = COUNTDOWN_SECONDS; seconds >= 1; seconds -= 1) {
    await expect(timer).toContainText(countdown(seconds));
    if (seconds === 1) await beforeLastSecond?.();
    await page.clock.runFor(1000);
  }
  await page.clock.resume();
}

/**
 * Anonymises the uid through its row's button and the dialog (held clock, countdown), as an operator would; the
 * outcome's notice stays. `inDialog` looks at the open dialog before it is filled.
 */
export async function anonymiseThroughTheDialog(
  page: Page,
  uid: string,
  reference: string,
  options: { words?: ErasureDialogWords; inDialog?: (dialog: Locator) => Promise<void> } = {},
): Promise<void> {
  const words = options.words ?? ENGLISH_ERASURE_WORDS;
  await page.getByRole('button', { name: words.rowAnonymise(uid), exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: words.title(uid) });
  await expect(dialog.getByLabel(words.typeUid)).toBeVisible();
  await options.inDialog?.(dialog);
  await dialog.getByLabel(words.typeUid).fill(uid);
  await dialog.getByLabel(words.reference).fill(reference);
  await holdPageClock(page);
  await dialog.getByRole('button', { name: words.confirm }).click();
  await runCountdown(page, dialog, undefined, words.countdown);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
}

/**
 * Fills "Act on a uid" and asks for the action; returns the dialog it opens. `goOnIfUnseen`: a uid not on the
 * loaded page is said to be unseen first, and the test means to go on to the typed confirmation.
 */
export async function actOnUid(page: Page, uid: string, action: 'Anonymise' | 'Delete', options: { goOnIfUnseen?: boolean } = {}): Promise<Locator> {
  const box = page.getByRole('region', { name: 'Act on a uid' });
  await box.getByLabel('uid', { exact: true }).fill(uid);
  await box.getByRole('button', { name: action, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (options.goOnIfUnseen) {
    const goOn = dialog.getByRole('button', { name: 'Continue anyway' });
    await expect(dialog.getByLabel('Type the uid to confirm').or(goOn)).toBeVisible();
    if (await goOn.isVisible()) await goOn.click();
  }
  return dialog;
}

/**
 * Opens the Audit view and waits for its table, which it returns. `frenchToo`: the window may be in French
 * (otherwise the English names are required).
 */
export async function openAudit(page: Page, options: { frenchToo?: boolean } = {}): Promise<Locator> {
  await page.getByRole('tab', { name: options.frenchToo ? /^(Audit trail|Journal d’audit)$/ : 'Audit trail' }).click();
  const table = page.getByRole('table', { name: options.frenchToo ? /^(Audit trail entries|Entrées du journal d’audit)$/ : 'Audit trail entries' });
  await expect(table).toBeVisible();
  return table;
}

/** The two window sizes operators use. */
export const SCREEN_SIZES = [
  { width: 1360, height: 850 },
  { width: 1024, height: 700 },
] as const;

export interface PhotographOptions {
  /** Waits until the console has applied each emulated theme (html[data-theme]) before its shot. */
  awaitTheme?: boolean;
  /** data-testid of an element scrolled into view before each shot. */
  scrollTo?: string;
  /** Runs at each size before its shots (e.g. to check that a dialog fits). */
  atEachSize?: (size: (typeof SCREEN_SIZES)[number]) => Promise<void>;
  /** Gives the window back the first size afterwards. */
  restoreSize?: boolean;
}

/** The window as the operator sees it (not a full page), at both sizes and in both themes: <name>-<size>-<theme>.png. */
export async function photograph(page: Page, testInfo: TestInfo, name: string, options: PhotographOptions = {}): Promise<void> {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await options.atEachSize?.(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      if (options.awaitTheme) await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      if (options.scrollTo) await page.getByTestId(options.scrollTo).scrollIntoViewIfNeeded();
      await saveScreenshot(page, testInfo, `${name}-${size.width}x${size.height}`, theme, { fullPage: false });
    }
  }
  if (options.restoreSize) await page.setViewportSize(SCREEN_SIZES[0]);
}

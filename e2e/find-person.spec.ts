import { test, expect, sandboxUser } from './fixtures';
import { expectNoSeriousAxeViolations, holdPageClock, runCountdown, saveScreenshot } from './support';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

interface Listed {
  uid: string | null;
  fullName: string | null;
}

test.describe('find a person on any page', () => {
  test('type a name without its accents, see it highlighted, open it and anonymise from there', async ({ app, bridge, profile, sandbox }, testInfo) => {
    // Someone beyond the first page, with an accent in their name: "Filter this page" could not find them.
    const everyone: Listed[] = [];
    for (let page = 1; page <= 6; page += 1) {
      const listed = await bridge('users.list', { profileId: profile.id, page, perPage: 10 });
      if (!listed.ok) throw new Error(listed.error.message);
      everyone.push(...(listed.value as { users: Listed[] }).users);
    }
    const person = everyone.slice(10).find((u) => u.uid !== null && u.fullName !== null && fold(u.fullName) !== u.fullName.toLowerCase());
    expect(person, 'the sandbox seeds accented names beyond the first page').toBeDefined();
    const typed = fold(person!.fullName!);

    const finder = app.getByRole('search');
    await finder.getByLabel('Find a person — every page').fill(typed);
    await finder.getByRole('button', { name: 'Find' }).click();
    const results = app.getByRole('list', { name: `People matching “${typed}”` });
    await expect(results).toBeVisible({ timeout: 15_000 });
    const result = results.getByRole('button', { name: `Open ${person!.fullName}` });
    await expect(result).toBeVisible();
    // The matched part is marked in the name as the service wrote it, accents included.
    await expect(result.locator('mark').first()).toHaveText(person!.fullName!);

    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      for (const theme of ['light', 'dark'] as const) {
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await results.scrollIntoViewIfNeeded();
        await saveScreenshot(app, testInfo, `find-person-${size.width}x${size.height}`, theme, { fullPage: false });
      }
    }
    await expectNoSeriousAxeViolations(app, testInfo, 'find a person');

    await result.click();
    const panel = app.getByRole('complementary');
    await expect(panel).toContainText(person!.uid!);
    await panel.getByRole('button', { name: `Anonymise ${person!.uid}` }).click();
    const dialog = app.getByRole('dialog', { name: `Anonymise user ${person!.uid}` });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Type the uid to confirm').fill(person!.uid!);
    await holdPageClock(app);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await runCountdown(app, dialog);
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    expect((await sandboxUser(sandbox, person!.uid!)).state).toBe('anonymized');
    // The index was updated by the erasure: the person is no longer found by that name.
    await expect(results.getByRole('button', { name: `Open ${person!.fullName}` })).toHaveCount(0, { timeout: 15_000 });
  });
});

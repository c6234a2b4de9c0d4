import { test, expect } from './fixtures';

test('the console switches to French: French labels, no English left on the main navigation', async ({ app }) => {
  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  const nav = app.getByRole('tablist', { name: 'Principal' });
  await expect(nav).toBeVisible();
  await expect(app.locator('html')).toHaveAttribute('lang', 'fr');
  for (const label of ['Utilisateurs', 'Test de déconnexion', 'Journal d’audit', 'Profils']) {
    await expect(nav.getByRole('tab', { name: label })).toBeVisible();
  }
  const navText = (await nav.innerText()).replace(/\s+/g, ' ');
  for (const english of ['Users', 'Logout tester', 'Audit trail', 'Profiles']) {
    expect(navText, `English "${english}" left on the French navigation`).not.toContain(english);
  }
  await expect(app.getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
  await expect(app.getByRole('table', { name: 'Utilisateurs de la page 1' })).toBeVisible();
  await expect(app.getByRole('columnheader', { name: 'Nom complet' })).toBeVisible();

  // The choice survives a reload (kept in the page's storage).
  await app.reload();
  await expect(app.getByRole('tablist', { name: 'Principal' })).toBeVisible();
});

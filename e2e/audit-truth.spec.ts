import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, createSandboxUser } from './fixtures';
import { anchorSettled, anonymiseThroughTheBridge } from './sandbox-helpers';
import { openAudit, photograph } from './support';

/**
 * What the Audit view says must be what the trail proves (Chromium, the real keychain): rows the chain does not vouch
 * for are marked, not "✓ Done"; a reference recorded before the reference rule is drawn with its marks; a 404 to an
 * erasure reads as the batch results read it; after a deleted trail, an act and a backup put back, the badge lists
 * every finding of the anchor with what to do.
 */

test('forged lines before the chain are marked as not vouched for; an old reference shows its hidden characters; a 404 reads "Not found"; the CSV says each row’s worth', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  const auditPath = join(dataDir, 'audit.jsonl');
  await createSandboxUser(sandbox, 'e2e-hugo');
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-hugo', 'REQ-80');
  // A delete of a uid the service does not know: answered 404.
  const missing = await bridge('users.erase', { profileId: profile.id, action: 'delete', uid: 'e2e-nobody', confirmUid: 'e2e-nobody', logoutFirst: false });
  expect(missing.ok).toBe(false);
  await anchorSettled(dataDir);
  // Two lines put at the top, as a forger would: a delete of forged-user, under a reference with a bell and a bidi override.
  const forged = (outcome: string) =>
    JSON.stringify({ at: '2026-11-20T09:00:00.000+01:00', actId: 'forged-act', action: 'delete', outcome, uid: 'forged-user', reference: 'REQ\u0007bell\u202eevil', profileId: profile.id, profileName: profile.name, baseUrl: profile.baseUrl, via: 'app', ...(outcome === 'done' ? { status: 200 } : {}) });
  await writeFile(auditPath, `${forged('attempted')}\n${forged('done')}\n${await readFile(auditPath, 'utf8')}`);

  await openAudit(app, { frenchToo: true });
  const table = app.getByRole('table', { name: 'Audit trail entries' });
  await expect(app.getByTestId('integrity')).toContainText('Chain broken at line 1');
  const forgedRow = table.getByRole('row').filter({ hasText: 'forged-user' });
  await expect(forgedRow).toContainText('⚠ Done');
  await expect(forgedRow).not.toContainText('✓ Done');
  await expect(forgedRow).toContainText('Not vouched: outside the chain (lines 1 to 2)');
  await expect(forgedRow.locator('.audit-grid__cell--reference')).toHaveAttribute('title', 'REQ⟨U+0007⟩bell⟨RLO⟩evil');
  const genuine = table.getByRole('row').filter({ hasText: 'e2e-hugo' });
  await expect(genuine).toContainText('✓ Done');
  await expect(genuine).not.toContainText('Not vouched');
  await expect(table.getByRole('row').filter({ hasText: 'e2e-nobody' })).toContainText('○ Not found (already erased or never existed)');
  await photograph(app, testInfo, 'audit-unvouched', { awaitTheme: true });

  const [csv] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Export CSV' }).click()]);
  const text = await readFile((await csv.path())!, 'utf8');
  const rows = text.trimEnd().split('\r\n');
  expect(rows[0]).toMatch(/,batchSummary,verified,pastedUid,desktop,dbRole$/);
  expect(rows.find((row) => row.startsWith('2,'))).toContain(',no: outside the chain,');
  expect(rows.at(-1)).toMatch(/^,,[^,]+,,chain-verdict,not verified,/);

  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  const tableFr = app.getByRole('table', { name: 'Entrées du journal d’audit' });
  await expect(tableFr.getByRole('row').filter({ hasText: 'forged-user' })).toContainText('Non garanti\u00a0: hors de la chaîne (lignes 1 à 2)');
  await expect(tableFr.getByRole('row').filter({ hasText: 'e2e-nobody' })).toContainText('○ Introuvable (déjà effacé ou jamais existé)');
  await photograph(app, testInfo, 'audit-unvouched-fr', { awaitTheme: true });
  await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
});

test('a deleted trail, a logout, then the backup put back: the badge counts and lists every open finding, each with what to do', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  const auditPath = join(dataDir, 'audit.jsonl');
  await createSandboxUser(sandbox, 'e2e-iris');
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-iris', 'REQ-90');
  await anchorSettled(dataDir);
  await copyFile(auditPath, join(dataDir, 'audit.backup'));
  await rm(auditPath);
  const logout = await bridge('logout.send', { profileId: profile.id, uid: 'e2e-iris', options: {} });
  expect(logout.ok).toBe(true);
  await anchorSettled(dataDir);
  await copyFile(join(dataDir, 'audit.backup'), auditPath);

  await openAudit(app, { frenchToo: true });
  const badge = app.getByTestId('integrity');
  await expect(badge).toContainText('the trail differs from the head its anchor recorded (rewritten)');
  await expect(app.getByTestId('integrity-anchor')).toContainText('2 findings of the anchor are open: the details list each, with what to do.');
  await expect(badge).not.toContainText(/shown above|the first is the verdict/);
  const details = app.getByTestId('anchor-findings');
  await details.getByText('Details: 2 findings of the anchor').click();
  const findings = details.locator('.anchor-finding--open');
  await expect(findings).toHaveCount(2);
  await expect(findings.nth(0)).toContainText('found by this check');
  await expect(findings.nth(0)).toContainText('What to do: if audit.jsonl was replaced on purpose');
  await expect(findings.nth(1)).toContainText('found by a write on');
  await expect(findings.nth(1)).toContainText('all of its entries were removed');
  await expect(findings.nth(1)).toContainText('What to do: if the file was deleted, emptied or replaced by an older copy on purpose');
  await photograph(app, testInfo, 'audit-findings', { awaitTheme: true });

  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect(app.getByTestId('integrity-anchor')).toContainText('2 constats de l’ancre sont ouverts');
  await expect(findings.nth(1)).toContainText('Que faire\u00a0: si le fichier a été supprimé');
  await photograph(app, testInfo, 'audit-findings-fr', { awaitTheme: true });
  await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
});

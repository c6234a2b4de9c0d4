import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import keytar from 'keytar';
import { anchorAccount, anchorInCredentialStore, type AuditAnchorRecord } from '../core/audit-anchor';
import { openAuditLog } from '../core/audit-log';
import { KEYCHAIN_SERVICE, openCredentialStore } from '../core/keytar-credential-store';
import { test, expect, createSandboxUser } from './fixtures';
import { anchorSettled, anonymiseThroughTheBridge } from './sandbox-helpers';
import { expectNoSeriousAxeViolations, openAudit, saveScreenshot } from './support';

/**
 * The integrity badge over the keychain's anchor (with-keyring.sh): entries removed from the end are said to be
 * removed, and an operator acknowledges the finding in the badge's details by typing why; the badge then says who,
 * when and why, in English and French. A write a crash cut short, its fragment set aside, is said and stays verified.
 */

const REASON = 'Restored from the 21 November backup after a disk failure; the missing act is recorded again under REQ-71.';

test('entries removed from the end are acknowledged in the integrity badge with a typed reason; the badge then says who, when and why', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  const auditPath = join(dataDir, 'audit.jsonl');
  for (const [uid, reference] of [['e2e-ines', 'REQ-70'], ['e2e-jules', 'REQ-71']] as const) {
    await createSandboxUser(sandbox, uid);
    await anonymiseThroughTheBridge(bridge, profile.id, uid, reference);
  }
  // The last act (its six entries) taken off the end: its chain alone is intact, only the anchor can tell.
  await anchorSettled(dataDir);
  const lines = (await readFile(auditPath, 'utf8')).trimEnd().split('\n');
  await writeFile(auditPath, `${lines.slice(0, -6).join('\n')}\n`);
  await openAudit(app);
  const badge = app.getByTestId('integrity');
  await expect(badge).toContainText('the trail ends before the head its anchor recorded (rolled back or deleted)');
  await expect(badge).toContainText('The last 6 entries were removed: the trail ends at entry 6, but the keychain’s anchor held entry 12');

  const details = app.getByTestId('anchor-findings');
  await details.getByText('Details: 1 finding of the anchor').click();
  await details.getByRole('button', { name: 'Acknowledge…' }).click();
  const reason = details.getByLabel(/^Why is finding [0-9a-f]{12} acceptable\?$/);
  const confirm = details.getByRole('button', { name: /^Acknowledge finding [0-9a-f]{12}$/ });
  await expect(confirm).toBeDisabled();
  await reason.fill('ok');
  await expect(details).toContainText('Say why you acknowledge this finding, in at least 10 characters');
  await expect(confirm).toBeDisabled();
  await reason.fill(REASON);
  await expect(confirm).toBeEnabled();
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await saveScreenshot(app, testInfo, `audit-acknowledge-${width}x${height}`, theme);
    }
    await expectNoSeriousAxeViolations(app, testInfo, `audit-acknowledge-${theme}`);
  }

  await confirm.click();
  await expect(badge).toHaveClass(/integrity--ok/);
  await expect(app.getByTestId('integrity-acknowledged')).toContainText(new RegExp(`^1 finding acknowledged on .+ by .+: ${REASON.replace(/[().?]/g, '\\$&')}$`));
  await expect(app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').nth(1)).toContainText('Finding acknowledged');
  const bridged = await bridge('audit.verify', {});
  expect(bridged.ok && bridged.value).toMatchObject({ ok: true, anchor: { findings: 1, acknowledged: [{ kind: 'rolled-back', reason: REASON }] } });
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await saveScreenshot(app, testInfo, `audit-acknowledged-${width}x${height}`, theme);
    }
  }

  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect(app.getByTestId('integrity-acknowledged')).toContainText(/^1 constat pris en compte le .+ par .+\u00a0: Restored from/);
  await details.getByText('Détails\u00a0: 1 constat de l’ancre').click();
  await expect(details).toContainText('Toujours consigné\u00a0: Les 6 dernières entrées ont été retirées');
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    await app.setViewportSize({ width: 1024, height: 700 });
    await saveScreenshot(app, testInfo, 'audit-acknowledged-fr-1024x700', theme);
  }
  await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
});

test('a write a crash cut short: once its fragment is set aside, the badge says so and the trail stays verified', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  const auditPath = join(dataDir, 'audit.jsonl');
  await createSandboxUser(sandbox, 'e2e-kim');
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-kim', 'REQ-72');
  // One more write through the same keychain anchor, then the folder as a power cut during it leaves it.
  const keychain = anchorInCredentialStore(() => openCredentialStore({ env: {} }), dataDir);
  const stored: AuditAnchorRecord[] = [];
  const log = openAuditLog(dataDir, { anchor: { ...keychain, write: async (record) => (stored.push(structuredClone(record)), keychain.write(record)) } });
  const before = await readFile(auditPath);
  await log.append({ at: new Date().toISOString(), actId: 'e2e-crash', action: 'logout', uid: 'e2e-kim', profileId: profile.id, profileName: profile.name, baseUrl: sandbox.url, outcome: 'attempted', via: 'app', operator: 'e2e', appVersion: 'e2e' });
  const after = await readFile(auditPath);
  await writeFile(auditPath, Buffer.concat([before, after.subarray(before.length, before.length + 180)]));
  await keytar.setPassword(KEYCHAIN_SERVICE, anchorAccount(dataDir), JSON.stringify(stored[0]));

  await openAudit(app);
  const badge = app.getByTestId('integrity');
  await expect(badge).toHaveClass(/integrity--ok/);
  await expect(app.getByTestId('integrity-crash')).toContainText(/^A write was cut short by a crash at \S+ \(its fragment is in \S+audit\.jsonl\.torn-\S+\): nothing of it reached the trail\.$/);
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await saveScreenshot(app, testInfo, `audit-crash-${width}x${height}`, theme);
    }
  }
  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect(app.getByTestId('integrity-crash')).toContainText('Une écriture a été interrompue par un plantage le');
  await app.emulateMedia({ colorScheme: 'light' });
  await saveScreenshot(app, testInfo, 'audit-crash-fr-1024x700', 'light');
  await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
});

import { createDesk } from '../core/desk';
import { openCredentialStore } from '../core/keytar-credential-store';
import { expect, sandboxUser, test } from './fixtures';
import { anonymiseThroughTheBridge, plainUids, putSandboxFaults } from './sandbox-helpers';
import { expectNoSeriousAxeViolations, photograph } from './support';

/**
 * A batch whose items failed, sent again from its results in the console against the web host and a sandbox:
 * the check of the failed uids, the phrase for those still there, and the same job ends with every item done.
 */

/**
 * Runs a delete batch to its end beside the console (same data folder, same keychain), each item tried for a few
 * attempts only: the console's own runs try an item for minutes.
 */
async function batchRunBeside(dataDir: string, profileId: string, uids: string[]) {
  const { store } = await openCredentialStore();
  const desk = createDesk({ dataDir, credentialStore: store, via: 'app', appVersion: 'e2e', batchSleep: async () => undefined, batchRetryForMs: 100 });
  const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'closures.txt' });
  const run = await desk.batch.start({ draftId: preview.draftId, profileId, action: 'delete', logoutFirst: false, concurrency: 4, confirmation: `DELETE ${uids.length}` });
  const result = await run.finished;
  await desk.settleAudit();
  return result;
}

test('a batch with failed items: Send the failed items again, the check, the typed count, and the same job ends all done', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  test.slow(true, 'photographed at both sizes in both themes, twice');
  const uids = await plainUids(bridge, profile.id, 4);
  // The service answers 200 with a body saying each erasure failed: every attempt's outcome is unknown, so each item fails.
  await putSandboxFaults(sandbox.url, { erasureResponse: 'error-200' });
  const failed = await batchRunBeside(dataDir, profile.id, uids);
  await putSandboxFaults(sandbox.url, { erasureResponse: 'json' });
  expect(failed.counts).toEqual({ done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 4, unfinished: 0 });
  // One of them is anonymised by hand meanwhile: the check finds that uid gone, and it is not sent again.
  await anonymiseThroughTheBridge(bridge, profile.id, uids[3]!, 'REQ-RETRY');

  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByRole('button', { name: /^Results of the batch from / }).click();
  const panel = app.locator('.batch-job');
  await expect(panel.getByRole('heading', { name: 'Batch finished: all 4 items have their outcome' })).toBeVisible();
  await expect(panel.locator('.batch-outcome--failed .batch-outcome__count')).toHaveText('4');
  const retry = panel.getByRole('button', { name: 'Send the failed items again' });
  await expect(retry).toBeVisible();
  await photograph(app, testInfo, 'batch-results-failed', { awaitTheme: true, restoreSize: true });
  await expectNoSeriousAxeViolations(app, testInfo, 'batch-results-failed');

  await retry.click();
  const retryPanel = app.getByRole('region', { name: /^Send the failed items of the batch from .+ again$/ });
  await expect(retryPanel.getByText('3 of 4 failed uids are still on the service: they are sent again.')).toBeVisible();
  await expect(retryPanel.getByRole('heading', { name: 'No longer on the service: recorded, not sent again' })).toBeVisible();
  await expect(retryPanel.locator('.batch-ends__list')).toHaveText(uids[3]!);
  const send = retryPanel.getByRole('button', { name: 'Send again' });
  await expect(send).toBeDisabled();
  await photograph(app, testInfo, 'batch-retry-check', { awaitTheme: true, restoreSize: true });
  await expectNoSeriousAxeViolations(app, testInfo, 'batch-retry-check');
  await retryPanel.getByLabel('Type DELETE 3 to confirm').fill('DELETE 3');
  await send.click();

  // The same job: its results now say every item is done, one of them done before (the check found it gone).
  await expect(panel.getByRole('heading', { name: 'Batch finished: all 4 items have their outcome' })).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('.batch-outcome--done .batch-outcome__count')).toHaveText('3');
  await expect(panel.locator('.batch-outcome--done-before-interruption .batch-outcome__count')).toHaveText('1');
  await expect(panel.locator('.batch-outcome--failed .batch-outcome__count')).toHaveText('0');
  await expect(panel.getByRole('button', { name: 'Send the failed items again' })).toHaveCount(0);
  const rows = app.getByRole('table', { name: `Results of batch ${failed.batchId}` }).locator('tbody tr');
  await expect(rows).toHaveCount(4);
  for (const uid of uids.slice(0, 3)) await expect(rows.filter({ hasText: uid })).toContainText('Done');
  await expect(rows.filter({ hasText: uids[3]! })).toContainText('Not sent again: the check before sending the failed items again did not find this uid on the service.');
  for (const uid of uids.slice(0, 3)) expect((await sandboxUser(sandbox, uid)).state).toBe('deleted');

  // The jobs table says the same of the one job: four done, none failed.
  const jobRow = app.getByRole('table', { name: 'Batches on this computer' }).locator('tbody tr').filter({ hasText: failed.batchId });
  await expect(jobRow).toContainText('4 done · 0 failed');
  await expect(jobRow).toContainText('Finished');
});

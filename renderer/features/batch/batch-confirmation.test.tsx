import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { confirmButton, emitProgress, jobIdOf, paste, progressOf, renderBatch, seededJob, startBatch, uidsOf } from './test/batch-test-kit';

/**
 * A typed phrase confirms one thing: this list (its preview), this operation, this profile, these choices,
 * for one click. Whenever what it confirmed is no longer what Start or Resume would send — a job started,
 * resumed, cancelled or finished, a preview replaced, a resume declined — the form is not armed.
 */

const confirmField = () => document.querySelector<HTMLInputElement>('form.batch-confirm input');

/** Nothing can be sent from the form on screen: its field is empty, its button disabled, and Enter sends nothing. */
async function expectNotArmed(fake: ReturnType<typeof renderBatch>['fake'], name: 'Start' | 'Resume' = 'Start') {
  const before = fake.callsOf('batch.start').length + fake.callsOf('batch.resume').length;
  const field = confirmField();
  if (field) {
    expect(field.value).toBe('');
    expect(confirmButton(name)?.disabled).toBe(true);
    fireEvent.submit(field.form!);
    fireEvent.click(confirmButton(name)!);
  }
  await act(async () => {});
  expect(fake.callsOf('batch.start').length + fake.callsOf('batch.resume').length).toBe(before);
}

describe('the typed phrase confirms one batch, once', () => {
  it('declining the resume panel goes back to the stopped job’s results, and the form it left is not armed (the trial’s case)', async () => {
    const { fake } = renderBatch();
    const { jobId, batchId } = await startBatch(fake, uidsOf(6), 'delete');
    emitProgress(fake, jobId, progressOf(batchId, { total: 6, counts: { done: 4, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 2 }, inFlight: 0 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel batch' }));
    expect(await screen.findByText('Batch stopped: 2 of 6 items unfinished')).toBeTruthy();

    fireEvent.click(confirmButtonInPanel('Resume'));
    expect(await screen.findByLabelText('Type DELETE 2 to confirm')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    // Back to what the operator declined from: the stopped job's results, with Resume still on offer.
    expect(await screen.findByText('Batch stopped: 2 of 6 items unfinished')).toBeTruthy();
    expect(screen.getByRole('table', { name: `Results of batch ${batchId}` })).toBeTruthy();
    expect(confirmField()).toBeNull();
    // Closing the results shows the list as it was, never with the phrase typed for the batch that ran.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await screen.findByText('Delete 6 users');
    await expectNotArmed(fake);
    expect(fake.callsOf('batch.start')).toHaveLength(1);
  });

  it('a preview replaced under a typed phrase (the screen left and opened again) needs the phrase again', async () => {
    const { fake, reopen } = renderBatch();
    paste(uidsOf(6).join('\n'));
    fireEvent.click(await screen.findByLabelText('Delete'));
    await screen.findByText('Delete 6 users');
    fireEvent.change(screen.getByLabelText('Type DELETE 6 to confirm'), { target: { value: 'DELETE 6' } });
    const first = fake.callsOf('batch.preview').length;
    reopen();
    await waitFor(() => expect(fake.callsOf('batch.preview').length).toBeGreaterThan(first));
    await screen.findByText('Delete 6 users');
    await expectNotArmed(fake);
  });

  it('a resume offered on opening, declined: the job’s results, and the phrase typed for the list before is gone', async () => {
    const job = seededJob();
    const { fake } = renderBatch({ batchJobs: [job] });
    paste(uidsOf(3).join('\n'));
    await screen.findByText('Anonymise 3 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 3 to confirm'), { target: { value: 'ANONYMISE 3' } });
    expect(confirmButton('Start')!.disabled).toBe(false);

    fireEvent.click(within(await screen.findByRole('list', { name: 'Batches to resume' })).getByRole('button', { name: 'Resume' }));
    await screen.findByLabelText('Type DELETE 2 to confirm');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('table', { name: `Results of batch ${job.batchId}` })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await screen.findByText('Anonymise 3 users');
    await expectNotArmed(fake);
  });

  it('Resume from a job’s results, declined: back to those results; nothing resumed', async () => {
    const job = seededJob();
    const { fake } = renderBatch({ batchJobs: [job] });
    const table = await screen.findByRole('table', { name: 'Batches on this computer' });
    fireEvent.click(within(table).getByRole('button', { name: /^Results of the batch from / }));
    fireEvent.click(confirmButtonInPanel('Resume'));
    fireEvent.change(await screen.findByLabelText('Type DELETE 2 to confirm'), { target: { value: 'DELETE 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('table', { name: `Results of batch ${job.batchId}` })).toBeTruthy();
    // Opened again, the resume asks for the phrase afresh.
    fireEvent.click(confirmButtonInPanel('Resume'));
    await screen.findByLabelText('Type DELETE 2 to confirm');
    await expectNotArmed(fake, 'Resume');
    expect(fake.callsOf('batch.resume')).toHaveLength(0);
  });

  it('a Start that fails takes the phrase with it: another attempt is typed again', async () => {
    const { fake } = renderBatch();
    paste(uidsOf(4).join('\n'));
    await screen.findByText('Anonymise 4 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 4 to confirm'), { target: { value: 'ANONYMISE 4' } });
    fake.failNext('batch.start', { code: 'NETWORK', outcome: 'unknown', message: 'The local web host did not answer.' });
    fireEvent.click(confirmButton('Start')!);
    expect(await screen.findByText('The batch did not start')).toBeTruthy();
    await expectNotArmed(fake);
    expect(fake.callsOf('batch.start')).toHaveLength(1);
  });

  it('a Resume that fails takes the phrase with it', async () => {
    const job = seededJob();
    const { fake } = renderBatch({ batchJobs: [job] });
    fireEvent.click(within(await screen.findByRole('list', { name: 'Batches to resume' })).getByRole('button', { name: 'Resume' }));
    fireEvent.change(await screen.findByLabelText('Type DELETE 2 to confirm'), { target: { value: 'DELETE 2' } });
    fake.failNext('batch.resume', { code: 'NETWORK', outcome: 'unknown', message: 'The local web host did not answer.' });
    fireEvent.click(confirmButton('Resume')!);
    expect(await screen.findByText('The batch did not resume')).toBeTruthy();
    await expectNotArmed(fake, 'Resume');
    expect(fake.callsOf('batch.resume')).toHaveLength(1);
  });

  it('a job followed here that ends, then Stop following / New batch: the form comes back empty-handed', async () => {
    const running = seededJob({ state: 'running', counts: { done: 1, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 5 } });
    const { fake } = renderBatch({ batchJobs: [running] });
    paste(uidsOf(3).join('\n'));
    await screen.findByText('Anonymise 3 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 3 to confirm'), { target: { value: 'ANONYMISE 3' } });
    fireEvent.click(within(await screen.findByRole('list', { name: 'Batches to resume' })).getByRole('button', { name: 'Follow' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop following' }));
    await screen.findByText('Anonymise 3 users');
    await expectNotArmed(fake);
  });

  it('a choice that changes what is sent (the operation, logging out first) asks for the phrase again', async () => {
    const { fake } = renderBatch();
    paste(uidsOf(5).join('\n'));
    await screen.findByText('Anonymise 5 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 5 to confirm'), { target: { value: 'ANONYMISE 5' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'End each user’s sessions first' }));
    await expectNotArmed(fake);
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 5 to confirm'), { target: { value: 'ANONYMISE 5' } });
    // The reference is a note for the audit trail, not what is sent: the phrase stays.
    fireEvent.change(screen.getByLabelText('Reference for the whole batch (optional)'), { target: { value: 'REQ-9' } });
    expect(confirmButton('Start')!.disabled).toBe(false);
    fireEvent.click(confirmButton('Start')!);
    await waitFor(() => expect(fake.callsOf('batch.start')).toEqual([expect.objectContaining({ logoutFirst: false, confirmation: 'ANONYMISE 5', reference: 'REQ-9' })]));
    expect(jobIdOf(fake, 'batch.start')).toMatch(/^job-/);
  });
});

/** The Resume button of a job's results panel (not the offers' or the confirmation form's). */
function confirmButtonInPanel(name: 'Resume'): HTMLElement {
  const panel = document.querySelector('.batch-job') as HTMLElement;
  return within(panel).getByRole('button', { name });
}

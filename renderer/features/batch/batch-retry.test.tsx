import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BatchRetryCheck } from '../../../shared/batch-retry';
import { confirmButton, renderBatch, seededJob, type FakeBridge } from './test/batch-test-kit';

/**
 * "Send the failed items again" on a finished job's results: the check of the failed uids runs first, then the
 * typed phrase for the items it sends (as Resume asks it), and the run is the same job's.
 */

// Rows of a seeded job follow its counts: done first, then not found, then failed (seeded-5 and seeded-6 here).
const finishedWithFailures = () => seededJob({ state: 'finished', total: 6, counts: { done: 3, doneBeforeInterruption: 0, notFound: 1, failed: 2, unfinished: 0 } });

const checked = (batchId: string, more: Partial<BatchRetryCheck> = {}): BatchRetryCheck => ({
  checkId: 'check-1',
  batchId,
  users: 30,
  failed: 2,
  toSend: 1,
  firstUids: ['seeded-5'],
  lastUids: [],
  gone: { count: 1, doneBeforeInterruption: 0, notFound: 1, sample: ['seeded-6'] },
  ...more,
});

/** The id the fake gave the job started by the last call of `method`. */
function lastJobId(fake: FakeBridge, method: 'batch.retryCheck' | 'batch.retry'): string {
  const index = fake.calls.map((call) => call.method).lastIndexOf(method);
  return `job-${index + 1}`;
}

async function openRetry(fake: FakeBridge) {
  fireEvent.click(await screen.findByRole('button', { name: /^Results of the batch from / }));
  fireEvent.click(await screen.findByRole('button', { name: 'Send the failed items again' }));
  await screen.findByRole('region', { name: /^Send the failed items of the batch from .+ again$/ });
  await waitFor(() => expect(fake.callsOf('batch.retryCheck')).toHaveLength(1));
}

describe('Send the failed items again', () => {
  it('checks the failed uids first, asks the phrase for those still there, and sends them as the same batch', async () => {
    const job = finishedWithFailures();
    const { fake } = renderBatch({ batchJobs: [job] });
    await openRetry(fake);
    expect(fake.callsOf('batch.retryCheck')).toEqual([{ batchId: job.batchId }]);
    expect(screen.getByText('2 of 6 items failed: only those are sent again, as new attempts of the same batch (its results and counts). Done and not-found items are never sent.')).toBeTruthy();
    // While the check runs there is nothing to confirm.
    expect(screen.getByText('Looking the failed uids up on the service (read-only)…')).toBeTruthy();
    expect(confirmButton('Send again')).toBeNull();

    act(() => fake.emitEvent('job.finished', { jobId: lastJobId(fake, 'batch.retryCheck'), kind: 'batch.retryCheck', status: 'completed', result: checked(job.batchId) }));
    expect(await screen.findByText('1 of 2 failed uids is still on the service: it is sent again.')).toBeTruthy();
    expect(screen.getByText('No longer on the service: recorded, not sent again')).toBeTruthy();
    expect(screen.getByText('seeded-6')).toBeTruthy();
    expect(screen.getByText('1 is recorded “not found” (already erased, or never existed).')).toBeTruthy();

    const send = () => confirmButton('Send again')!;
    const field = screen.getByLabelText('Type DELETE 1 to confirm');
    expect(send().disabled).toBe(true);
    // The job's failed count is not the phrase: only what the check found still there is sent.
    fireEvent.change(field, { target: { value: 'DELETE 2' } });
    expect(send().disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'DELETE 1' } });
    expect(send().disabled).toBe(false);
    fireEvent.click(send());
    await waitFor(() => expect(fake.callsOf('batch.retry')).toEqual([{ batchId: job.batchId, checkId: 'check-1', concurrency: 4, confirmation: 'DELETE 1' }]));
    expect(fake.callsOf('batch.start')).toHaveLength(0);
    expect(fake.callsOf('batch.resume')).toHaveLength(0);

    // The same batch runs, then finishes with nothing failed: no more offer to send anything again.
    expect(await screen.findByText(`Batch ${job.batchId}`)).toBeTruthy();
    const counts = { done: 4, doneBeforeInterruption: 0, notFound: 2, failed: 0, unfinished: 0 };
    act(() => fake.emitEvent('job.finished', { jobId: lastJobId(fake, 'batch.retry'), kind: 'batch.run', status: 'completed', result: { batchId: job.batchId, total: 6, counts, state: 'finished' } }));
    expect(await screen.findByText('Batch finished: all 6 items have their outcome')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send the failed items again' })).toBeNull();
    expect(fake.batchJob(job.batchId)).toMatchObject({ state: 'finished', counts });
  });

  it('a wrong phrase refused by the core is said, and the form is not armed again with it', async () => {
    const job = finishedWithFailures();
    const { fake } = renderBatch({ batchJobs: [job] });
    await openRetry(fake);
    act(() => fake.emitEvent('job.finished', { jobId: lastJobId(fake, 'batch.retryCheck'), kind: 'batch.retryCheck', status: 'completed', result: checked(job.batchId) }));
    fake.failNext('batch.retry', { code: 'CONFIRMATION_MISMATCH', message: 'To confirm, type DELETE 1 exactly (the operation and the number of failed items sent again). Nothing was sent.' });
    fireEvent.change(await screen.findByLabelText('Type DELETE 1 to confirm'), { target: { value: 'DELETE 1' } });
    fireEvent.click(confirmButton('Send again')!);
    expect(await screen.findByText('The failed items were not sent again')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Type DELETE 1 to confirm').value).toBe('');
    expect(confirmButton('Send again')!.disabled).toBe(true);
  });

  it('when no failed uid is on the service any more, nothing is sent and no phrase is asked: what the check found is recorded', async () => {
    const job = finishedWithFailures();
    const { fake } = renderBatch({ batchJobs: [job] });
    await openRetry(fake);
    const gone = { count: 2, doneBeforeInterruption: 1, notFound: 1, sample: ['seeded-5', 'seeded-6'] };
    act(() => fake.emitEvent('job.finished', { jobId: lastJobId(fake, 'batch.retryCheck'), kind: 'batch.retryCheck', status: 'completed', result: checked(job.batchId, { toSend: 0, firstUids: [], gone }) }));
    expect(await screen.findByText('None of the 2 failed uids is on the service any more: nothing is sent.')).toBeTruthy();
    expect(screen.getByText(/^1 is recorded “done before the interruption”/)).toBeTruthy();
    expect(document.querySelector('form.batch-confirm')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Record what the check found' }));
    await waitFor(() => expect(fake.callsOf('batch.retry')).toEqual([{ batchId: job.batchId, checkId: 'check-1', concurrency: 4, confirmation: '' }]));
  });

  it('Cancel goes back to the job’s results, sends nothing, and stops a check under way', async () => {
    const job = finishedWithFailures();
    const { fake } = renderBatch({ batchJobs: [job] });
    await openRetry(fake);
    fireEvent.click(screen.getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    expect(await screen.findByRole('table', { name: `Results of batch ${job.batchId}` })).toBeTruthy();
    await waitFor(() => expect(fake.callsOf('jobs.cancel')).toEqual([{ jobId: lastJobId(fake, 'batch.retryCheck') }]));
    expect(fake.callsOf('batch.retry')).toHaveLength(0);
  });

  it('is offered only on a finished job with failed items', async () => {
    renderBatch({ batchJobs: [seededJob({ state: 'finished', total: 6, counts: { done: 5, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 0 } })] });
    fireEvent.click(await screen.findByRole('button', { name: /^Results of the batch from / }));
    expect(await screen.findByText('Batch finished: all 6 items have their outcome')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send the failed items again' })).toBeNull();
  });
});

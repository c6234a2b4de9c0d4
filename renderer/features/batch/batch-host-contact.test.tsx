import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emitProgress, progressOf, renderBatch, seededJob, startBatch, uidsOf } from './test/batch-test-kit';

/**
 * When Privacy Desk's host stops being heard (the web host killed or hung, Electron's main process stuck),
 * no batch screen may go on saying "Running": what a job was last said to be is no longer known. Every running
 * job says so, since when and what to do; when contact comes back, the screens read the jobs again.
 */

// Today (whatever day the test runs on): a loss of contact today is said by its time alone, as an operator sees it.
const TODAY = new Date();
const LOST_AT = new Date(TODAY.getFullYear(), TODAY.getMonth(), TODAY.getDate(), 14, 32);
const lostTime = new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(LOST_AT);
const jobRow = async (batchId: string) => within(await screen.findByRole('table', { name: 'Batches on this computer' })).getAllByRole('row').find((row) => row.textContent?.includes(batchId))!;
const figureLabels = (panel: HTMLElement) => within(panel).queryAllByRole('term').map((term) => term.textContent);

describe('the host stops answering during a batch', () => {
  it('the progress panel and the jobs table say the state is unknown since when, nothing more; contact back, they say what the run says', async () => {
    const { fake } = renderBatch();
    const { jobId, batchId } = await startBatch(fake, uidsOf(20));
    emitProgress(fake, jobId, progressOf(batchId, { revision: 1 }));
    const panel = await screen.findByRole('region', { name: 'Progress' });
    await waitFor(() => expect(figureLabels(panel)).toContain('Time left'));

    act(() => fake.loseContact(LOST_AT));
    expect(await within(panel).findByText(`State unknown since ${lostTime}`)).toBeTruthy();
    expect(within(panel).getByRole('alert').textContent).toBe('Lost contact with Privacy Desk’s host: the batch may still be running or may have stopped. Reopen Privacy Desk to see.');
    expect(within(panel).queryByText('Running')).toBeNull();
    // Nothing said of now: no rate, no time left, nothing in flight; the counts are the last ones reported.
    expect(figureLabels(panel)).not.toEqual(expect.arrayContaining(['Time left']));
    expect(figureLabels(panel)).not.toContain('Rate');
    expect(figureLabels(panel)).not.toContain('In flight');
    expect(within(panel).getByText(`Last reported before ${lostTime}`)).toBeTruthy();
    expect((within(panel).getByRole('button', { name: 'Pause' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(panel).getByRole('button', { name: 'Cancel batch' }) as HTMLButtonElement).disabled).toBe(true);
    const row = await jobRow(batchId);
    expect(row.querySelector('.tag')!.textContent).toBe('Unknown');
    expect(row.textContent).toContain(`since ${lostTime} (lost contact)`);

    // Contact back: the jobs are read again, and the run's own reports are shown again.
    const lists = fake.callsOf('batch.list').length;
    act(() => fake.regainContact());
    await waitFor(() => expect(fake.callsOf('batch.list').length).toBeGreaterThan(lists));
    emitProgress(fake, jobId, progressOf(batchId, { revision: 5 }));
    expect(await within(panel).findByText('Running')).toBeTruthy();
    expect(within(panel).queryByRole('alert')).toBeNull();
    await waitFor(async () => expect((await jobRow(batchId)).querySelector('.tag')!.textContent).toBe('Running'));
  });

  it('a run that ended while the host was not heard: its results, once contact is back (its end event never came)', async () => {
    const { fake } = renderBatch();
    const { jobId, batchId } = await startBatch(fake, uidsOf(20));
    emitProgress(fake, jobId, progressOf(batchId, { revision: 1 }));
    await screen.findByRole('region', { name: 'Progress' });
    act(() => fake.loseContact(LOST_AT));
    // The run ends in the host; the window does not hear it.
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.run', status: 'completed', result: { batchId, total: 20, counts: { done: 20, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 }, state: 'finished' } }));
    expect(screen.getByText(`State unknown since ${lostTime}`)).toBeTruthy();
    act(() => fake.regainContact());
    expect(await screen.findByText('Batch finished: all 20 items have their outcome')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Progress' })).toBeNull();
  });

  it('a job run elsewhere, listed as running or paused: Unknown in the table and its offer while the host is not heard', async () => {
    const running = seededJob({ state: 'running', counts: { done: 1, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 5 } });
    const { fake } = renderBatch({ batchJobs: [running] });
    await jobRow(running.batchId);
    act(() => fake.loseContact(LOST_AT));
    expect((await jobRow(running.batchId)).querySelector('.tag')!.textContent).toBe('Unknown');
    expect(within(screen.getByRole('list', { name: 'Batches to resume' })).getByText(/· State unknown$/)).toBeTruthy();
  });

  it('a check of the list under way when contact is lost ends, saying so and what to do', async () => {
    const { fake } = renderBatch();
    fireEvent.change(screen.getByLabelText('uids to erase'), { target: { value: uidsOf(3).join('\n') } });
    await screen.findByText('Anonymise 3 users');
    fireEvent.click(screen.getByRole('button', { name: 'Check against the service' }));
    await waitFor(() => expect(fake.callsOf('batch.check')).toHaveLength(1));
    act(() => fake.loseContact(LOST_AT));
    expect(await screen.findByText('The check could not finish')).toBeTruthy();
    expect(screen.getByText(new RegExp(`^Lost contact with Privacy Desk’s host at ${lostTime}: this reading of the users list may still be going on or may have stopped\\.`))).toBeTruthy();
  });
});

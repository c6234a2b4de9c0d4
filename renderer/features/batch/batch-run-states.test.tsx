import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emitProgress, progressOf, renderBatch, startBatch, uidsOf } from './test/batch-test-kit';

/**
 * What the progress panel and the jobs table say of a run's state: never a figure the state makes false
 * (a rate or a time left while paused or stopping), and the same word on both.
 */

const jobRow = async (batchId: string) => within(await screen.findByRole('table', { name: 'Batches on this computer' })).getAllByRole('row').find((row) => row.textContent?.includes(batchId))!;
const figureLabels = (panel: HTMLElement) => within(panel).queryAllByRole('term').map((term) => term.textContent);

describe('a run’s state, as the screens say it', () => {
  it('paused: no rate and no time left, but since when it is paused; both come back when it runs again', async () => {
    const { fake } = renderBatch();
    const { jobId, batchId } = await startBatch(fake, uidsOf(20));
    emitProgress(fake, jobId, progressOf(batchId, { revision: 1 }));
    const panel = await screen.findByRole('region', { name: 'Progress' });
    await waitFor(() => expect(figureLabels(panel)).toContain('Time left'));

    const pausedSince = new Date(Date.now() - 60_000).toISOString();
    emitProgress(fake, jobId, progressOf(batchId, { revision: 2, state: 'paused', inFlight: 0, ratePerSecond: 0.9, secondsLeft: 52, pausedSince }));
    const since = new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(new Date(pausedSince));
    expect(await within(panel).findByText(`Paused since ${since}: nothing new is sent until you resume.`)).toBeTruthy();
    expect(figureLabels(panel)).not.toContain('Time left');
    expect(figureLabels(panel)).not.toContain('Rate');
    expect(panel.textContent).not.toMatch(/52 s|0\.9 per second/);
    // What is known stays: the counts and nothing in flight.
    expect(figureLabels(panel)).toEqual(expect.arrayContaining(['Done', 'Remaining', 'In flight']));
    expect((await jobRow(batchId)).querySelector('.tag')!.textContent).toBe('Paused');

    emitProgress(fake, jobId, progressOf(batchId, { revision: 3 }));
    await waitFor(() => expect(figureLabels(panel)).toContain('Time left'));
    expect(figureLabels(panel)).toContain('Rate');
  });

  it('stopping: the jobs table says Stopping as soon as the panel does, before the run answers, and no time left is given', async () => {
    const { fake } = renderBatch();
    const { jobId, batchId } = await startBatch(fake, uidsOf(20));
    emitProgress(fake, jobId, progressOf(batchId, { revision: 1 }));
    const panel = await screen.findByRole('region', { name: 'Progress' });
    // The cancel is on its way: items in flight are finishing.
    vi.spyOn(fake.bridge, 'jobs.cancel').mockImplementation(() => new Promise(() => {}));
    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel batch' }));
    expect(await within(panel).findByText('Stopping: the items in flight finish, nothing more is sent.')).toBeTruthy();
    await waitFor(async () => expect((await jobRow(batchId)).querySelector('.tag')!.textContent).toBe('Stopping'));
    expect(figureLabels(panel)).not.toContain('Time left');

    // The run's own report says the same; a later list read keeps it.
    emitProgress(fake, jobId, progressOf(batchId, { revision: 2, state: 'stopping', inFlight: 2 }));
    expect((await jobRow(batchId)).querySelector('.tag')!.textContent).toBe('Stopping');
    expect(within(panel).getByText('Stopping: the items in flight finish, nothing more is sent.')).toBeTruthy();
  });

  it('the fake tells the truth as the core does: a paused run’s job is listed paused, not running', async () => {
    const { fake } = renderBatch();
    const { jobId, batchId } = await startBatch(fake, uidsOf(20));
    emitProgress(fake, jobId, progressOf(batchId, { revision: 1, state: 'paused', inFlight: 0 }));
    const [listed] = (await fake.bridge['batch.list']({})).jobs;
    expect(listed).toMatchObject({ batchId, state: 'paused', live: { state: 'paused' } });
    // A Pause answered says so in the list too, before any report.
    emitProgress(fake, jobId, progressOf(batchId, { revision: 2 }));
    await act(async () => void (await fake.bridge['batch.setPaused']({ jobId, paused: true })));
    expect((await fake.bridge['batch.get']({ batchId })).job).toMatchObject({ state: 'paused', live: { state: 'paused' } });
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BatchJobHolder } from '../../../shared/batch';
import { renderBatch, seededJob } from './test/batch-test-kit';

/**
 * A job another process runs names that process, as the CLI and the core do: its pid, its computer, since when and
 * where its lock is (BatchJobSummary.holder) — not only "in another process".
 */

const LOCK = '/home/dpo/.config/privacy-desk/batches/20261121-093000-abcdef/run.lock';
const holder = (onThisComputer: boolean): BatchJobHolder => ({
  pid: 48213,
  host: onThisComputer ? 'desk-7' : 'desk-9',
  onThisComputer,
  since: '2026-11-24T08:15:30.000Z',
  lockPath: LOCK,
  text: { id: onThisComputer ? 'batch.holder.here' : 'batch.holder.elsewhere', params: { pid: '48213', host: onThisComputer ? 'desk-7' : 'desk-9', since: '2026-11-24T09:15:30+01:00', path: LOCK } },
});
const named = `process 48213 on this computer (desk-7) since 2026-11-24T09:15:30+01:00, holding the lock ${LOCK}`;
const jobRow = async (batchId: string, table = 'Batches on this computer') => within(await screen.findByRole('table', { name: table })).getAllByRole('row').find((row) => row.textContent?.includes(batchId))!;

describe('a job another process runs, named by its process', () => {
  it('its offer and its row in the jobs table say which process runs it, since when, and where its lock is', async () => {
    const running = seededJob({ state: 'running', holder: holder(true) });
    renderBatch({ batchJobs: [running] });
    expect(within(await jobRow(running.batchId)).getByText(`Run by ${named}`)).toBeTruthy();
    const offers = screen.getByRole('list', { name: 'Batches to resume' });
    expect(within(offers).getByText(`Run by ${named}`)).toBeTruthy();
    expect(within(offers).queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('in French, on another computer', async () => {
    const paused = seededJob({ state: 'paused', holder: holder(false) });
    renderBatch({ batchJobs: [paused], language: 'fr' });
    const said = `Traité par le processus 48213 d’un autre ordinateur (desk-9) depuis 2026-11-24T09:15:30+01:00, qui détient le verrou ${LOCK}`;
    expect(within(await jobRow(paused.batchId, 'Lots sur cet ordinateur')).getByText(said)).toBeTruthy();
  });

  it('a job taken by another process after it was offered here: the resume card says it is running now, and by which process', async () => {
    const unfinished = seededJob();
    const { fake, queryClient } = renderBatch({ batchJobs: [unfinished] });
    fireEvent.click(within(await screen.findByRole('list', { name: 'Batches to resume' })).getByRole('button', { name: 'Resume' }));
    await screen.findByLabelText('Type DELETE 2 to confirm');
    const list = fake.bridge['batch.list'];
    vi.spyOn(fake.bridge, 'batch.list').mockImplementation(async (input) => ({ ...(await list(input)), jobs: [{ ...unfinished, state: 'running', holder: holder(true), revision: 1 }] }));
    await act(() => queryClient.invalidateQueries());
    const card = await waitFor(() => screen.getByText('Nothing to resume here: this batch is now “Running”.', { exact: false }));
    expect(within(card).getByText(`Run by ${named}`)).toBeTruthy();
    expect(screen.queryByLabelText('Type DELETE 2 to confirm')).toBeNull();
  });
});

import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { useUiStore } from '../../state/ui-store';
import { useBatchDraft } from '../batch/batch-draft-store';
import { useReconcile } from './reconcile-store';

const APPLICATION = ['alice@example.com', 'bob', 'carol', 'zed', ...Array.from({ length: 23 }, (_, i) => `user-${i + 7}`)];

beforeEach(() => {
  useReconcile.setState({ pasted: '', file: null, separator: '', uidColumn: '', hasHeader: false, result: null, shownSet: 'orphans', filter: '', offset: 0 });
  useBatchDraft.getState().clear();
});

async function reconcileList(application: string[] = APPLICATION) {
  const app = renderApp();
  await screen.findByRole('tablist', { name: 'Main' });
  act(() => useUiStore.getState().setView('reconcile'));
  await screen.findByRole('heading', { name: 'Reconcile with the client application', level: 2 });
  const box = screen.getByLabelText('Current uids of the application');
  fireEvent.paste(box);
  fireEvent.change(box, { target: { value: application.join('\n') } });
  expect((await screen.findByTestId('reconcile-list-summary')).textContent).toBe(`${application.length} distinct uids read`);
  fireEvent.click(screen.getByRole('button', { name: 'Reconcile' }));
  await waitFor(() => expect(app.fake.callsOf('reconcile.start')).toHaveLength(1));
  expect(app.fake.callsOf('reconcile.start')[0]).toMatchObject({ profileId: 'sandbox', kind: 'list', hasHeader: false, sourceName: 'pasted list' });
  const jobId = `job-${app.fake.calls.findIndex((call) => call.method === 'reconcile.start') + 1}`;
  act(() => app.fake.finishReconcile(jobId));
  await screen.findByRole('heading', { name: 'Result' });
  return app;
}

describe('the Reconcile tab', () => {
  it('shows the counts of each set, the orphans first; a near match names both uids and what differs', async () => {
    await reconcileList();
    expect(screen.getByTestId('reconcile-count-orphans').textContent).toBe('3Orphans');
    expect(screen.getByTestId('reconcile-count-missing').textContent).toBe('1Missing');
    expect(screen.getByTestId('reconcile-count-inBoth').textContent).toBe('25In both');
    expect(screen.getByTestId('reconcile-count-nearMatches').textContent).toBe('2Near matches');
    const orphans = await screen.findAllByTestId('reconcile-uid');
    expect(orphans.map((cell) => cell.textContent)).toEqual(['zoë/räksmörgås?#%', 'dave␣smith', 'user-30']);
    fireEvent.click(screen.getByTestId('reconcile-count-nearMatches'));
    const table = await screen.findByTestId('reconcile-table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByText('spaces at an end')).toBeTruthy();
    expect(within(table).getByText('capitals')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /to a batch/ })).toBeNull();
  });

  it('warns when no uid of the list is on the service (every user an orphan), and only then', async () => {
    await reconcileList();
    expect(screen.queryByTestId('reconcile-nothing-in-both')).toBeNull();
    cleanup();
    await reconcileList(['Ada Lovelace', 'Grace Hopper']);
    expect(screen.getByTestId('reconcile-count-inBoth').textContent).toBe('0In both');
    expect(screen.getByTestId('reconcile-nothing-in-both').textContent).toMatch(/^No uid of the list is on the service, so every user of the service is an orphan\./);
  });

  it('lists the invalid lines of the application’s list with their numbers and why, as a batch’s preview does', async () => {
    renderApp();
    await screen.findByRole('tablist', { name: 'Main' });
    act(() => useUiStore.getState().setView('reconcile'));
    const box = await screen.findByLabelText('Current uids of the application');
    fireEvent.paste(box);
    fireEvent.change(box, { target: { value: 'alice@example.com\nbad\u0007uid\nzed' } });
    expect((await screen.findByTestId('reconcile-list-summary')).textContent).toBe('2 distinct uids read · 1 invalid line left out');
    const invalid = screen.getByTestId('reconcile-invalid-lines');
    expect(within(invalid).getByText('Line 2')).toBeTruthy();
    expect(invalid.textContent).toContain('control character');
  });

  it('filters the table, capitals aside', async () => {
    await reconcileList();
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'USER' } });
    await waitFor(() => expect(screen.getAllByTestId('reconcile-uid').map((cell) => cell.textContent)).toEqual(['user-30']));
    expect(screen.getByText('Rows 1–1 of 1')).toBeTruthy();
  });

  it('sends the orphans to the Batch tab as a list read whole, under the reconciliation’s reference', async () => {
    await reconcileList();
    fireEvent.click(screen.getByRole('button', { name: 'Send 3 orphans to a batch' }));
    await waitFor(() => expect(useUiStore.getState().view).toBe('batch'));
    const draft = useBatchDraft.getState();
    expect(draft.separator).toBe('none');
    expect(draft.reference).toMatch(/^reconcile-\d{8}-[0-9a-f]{6}$/);
    expect(draft.file?.text).toBe('uid\nzoë/räksmörgås?#%\ndave smith\nuser-30\n');
  });

  it('with a filter, the button says how many orphans it sends, and sends just those', async () => {
    await reconcileList();
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'USER' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Send the 1 orphan the filter keeps to a batch' }));
    await waitFor(() => expect(useUiStore.getState().view).toBe('batch'));
    expect(useBatchDraft.getState().file?.text).toBe('uid\nuser-30\n');
  });

  it('a filter that keeps no orphan offers nothing to send', async () => {
    await reconcileList();
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'nobody-matches' } });
    await screen.findByText('No uid of this set matches the filter.');
    expect(screen.queryByRole('button', { name: /to a batch/ })).toBeNull();
  });

  it('reports each page read, and Cancel stops the walk: nothing is shown, the operator is told to start again', async () => {
    const app = renderApp();
    await screen.findByRole('tablist', { name: 'Main' });
    act(() => useUiStore.getState().setView('reconcile'));
    const box = await screen.findByLabelText('Current uids of the application');
    fireEvent.paste(box);
    fireEvent.change(box, { target: { value: 'alice@example.com\nzed' } });
    await screen.findByText('2 distinct uids read');
    fireEvent.click(screen.getByRole('button', { name: 'Reconcile' }));
    await waitFor(() => expect(app.fake.callsOf('reconcile.start')).toHaveLength(1));
    const jobId = `job-${app.fake.calls.findIndex((call) => call.method === 'reconcile.start') + 1}`;
    act(() => app.fake.emitEvent('job.progress', { jobId, kind: 'reconcile', page: 2, totalPages: 5, collected: 200 }));
    expect((await screen.findByTestId('reconcile-progress')).textContent).toContain('Reading the service’s users: page 2 of 5, 200 users');
    expect(screen.getByRole('button', { name: 'Reconcile' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(app.fake.callsOf('jobs.cancel')).toEqual([{ jobId }]));
    expect(await screen.findByText(/The reconciliation was cancelled before every page was read/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Result' })).toBeNull();
  });
});

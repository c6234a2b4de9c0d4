import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BatchJobDamage, BatchJobSummary } from '../../../shared/batch';
import { FAKE_FAILURE_REASON } from '../../test/fake-batch';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../../test/fake-bridge';
import type { FakeBridgeOptions } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import { useUiStore } from '../../state/ui-store';
import { useBatchDraft } from './batch-draft-store';
import { resetBatchRun } from './batch-run-store';
import { progressOf, seededJob } from './test/batch-test-kit';

const UIDS = Array.from({ length: 20 }, (_, index) => `support-${index + 1}`);

beforeEach(() => {
  resetBatchRun();
  useBatchDraft.getState().clear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function openBatch(options: FakeBridgeOptions = {}) {
  const app = renderApp(options);
  await screen.findByRole('tablist', { name: 'Main' });
  act(() => useUiStore.getState().setView('batch'));
  await screen.findByRole('heading', { name: 'Batch erasure', level: 2 });
  return app;
}

function paste(text: string) {
  const box = screen.getByLabelText('uids to erase');
  fireEvent.paste(box);
  fireEvent.change(box, { target: { value: text } });
}

/** Paste, wait for the preview, type the phrase, click Start: the support agent's whole path. */
async function startBatch(fake: Awaited<ReturnType<typeof openBatch>>['fake'], uids = UIDS, phrase = `ANONYMISE ${uids.length}`) {
  paste(uids.join('\n'));
  await screen.findByText(`Anonymise ${uids.length} users`);
  fireEvent.change(screen.getByLabelText(`Type ANONYMISE ${uids.length} to confirm`), { target: { value: phrase } });
  fireEvent.click(screen.getByRole('button', { name: 'Start' }));
  await waitFor(() => expect(fake.callsOf('batch.start')).toHaveLength(1));
  const jobId = `job-${fake.calls.findIndex((call) => call.method === 'batch.start') + 1}`;
  const batchId = (await fake.bridge['batch.list']({})).jobs[0]!.batchId;
  return { jobId, batchId };
}

const progress = progressOf;

describe('the Batch screen', () => {
  it('previews a pasted list at once: counts, duplicates, invalid lines with their numbers, first and last uids', async () => {
    const { fake } = await openBatch();
    paste(['alice', 'bob', 'alice', '', 'carol', '.', 'dave', ' erin', 'frank', 'grace'].join('\n'));
    expect(await screen.findByText('Anonymise 7 users')).toBeTruthy();
    expect(fake.callsOf('batch.preview')).toHaveLength(1);
    expect(fake.callsOf('batch.preview')[0]).toMatchObject({ sourceName: 'pasted list', kind: 'auto' });
    const facts = screen.getByText('Duplicates removed').closest('dl')!;
    expect(within(facts).getByText('Duplicates removed').nextSibling!.textContent).toBe('1');
    expect(within(facts).getByText('Invalid lines').nextSibling!.textContent).toBe('1');
    const invalid = screen.getByRole('region', { name: 'Invalid lines (left out)' });
    expect(within(invalid).getByText('Line 6')).toBeTruthy();
    expect(within(invalid).getByText('.')).toBeTruthy();
    // The reason in the window's words (the single act's), not the core's.
    expect(within(invalid).getByText('A uid of "." or ".." cannot be sent in a request path. Check the uid; if it is really this, contact the service.')).toBeTruthy();
    // Said plainly, not in a tooltip: the uid with a leading space is kept exactly, and its line is named.
    expect(screen.getByText('1 uid begins or ends with spaces and is kept exactly: line 8 — check it matches the request.', { exact: false }).closest('[role="note"]')).not.toBeNull();
    // First and last uids, exact: the leading space of " erin" is kept, and drawn (␣, named "space").
    const ends = (label: string) => [...screen.getByText(label).nextElementSibling!.querySelectorAll('li')].map((li) => li.textContent);
    expect(ends('First uids')).toEqual(['alice', 'bob', 'carol']);
    expect(ends('Last uids')).toEqual(['␣erin', 'frank', 'grace']);
    expect(within(screen.getByText('Last uids').nextElementSibling as HTMLElement).getByRole('img', { name: 'space (U+0020)' })).toBeTruthy();
    // The single act's words: where, what is erased and kept, that it cannot be undone.
    expect(screen.getByText('Sandbox on 127.0.0.1:4600')).toBeTruthy();
    expect(screen.getByText('This CANNOT BE UNDONE.')).toBeTruthy();
    expect(fake.callsOf('batch.start')).toHaveLength(0);
  });

  it('offers the columns of a CSV file and previews again with the picked uid and reference columns', async () => {
    const { fake } = await openBatch();
    const file = new File(['email,user id,ticket\na@example.org,u-1,T-1\nb@example.org,u-2,T-2\n'], 'requests.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('Open file…'), { target: { files: [file] } });
    expect(await screen.findByText(/^File requests\.csv \(\d+ B\)$/)).toBeTruthy();
    await waitFor(() => expect(fake.callsOf('batch.preview')).toHaveLength(1));
    expect(fake.callsOf('batch.preview')[0]).toMatchObject({ sourceName: 'requests.csv' });
    fireEvent.change(await screen.findByLabelText('uid column'), { target: { value: 'user id' } });
    fireEvent.change(screen.getByLabelText('Reference column (optional)'), { target: { value: 'ticket' } });
    await waitFor(() => expect(fake.callsOf('batch.preview').at(-1)).toMatchObject({ uidColumn: 'user id', referenceColumn: 'ticket', hasHeader: true }));
    expect(await screen.findByText('Anonymise 2 users')).toBeTruthy();
    expect(screen.getByText('u-1')).toBeTruthy();
    // Which column the uids came from, by name and number.
    expect(screen.getByText('uids read from').nextSibling!.textContent).toBe('“user id” (column 2)');
  });

  it('words invalid lines and uids with edge spaces in the window’s language (French here), excerpts kept as they are', async () => {
    await openBatch();
    act(() => useUiStore.getState().setLanguage('fr'));
    await screen.findByRole('heading', { name: 'Effacement par lot', level: 2 });
    const box = screen.getByLabelText('uid à effacer');
    fireEvent.change(box, { target: { value: ['alice', '..', 'bob ', ' carol', 'x'.repeat(1100)].join('\n') } });
    expect(await screen.findByText('Anonymiser 3 utilisateurs')).toBeTruthy();
    const invalid = screen.getByRole('region', { name: 'Lignes invalides (écartées)' });
    expect(within(invalid).getByText('Un uid « . » ou « .. » ne peut pas être envoyé dans un chemin de requête. Vérifiez l’uid ; si c’est bien lui, contactez le service.')).toBeTruthy();
    expect(within(invalid).getByText('..')).toBeTruthy();
    expect(within(invalid).queryByText(/The uid/)).toBeNull();
    expect(screen.getByText(/^2 uid commencent ou finissent par des espaces et sont gardés tels quels : lignes 3, 4 — vérifiez/)).toBeTruthy();
  });

  it('keeps Start disabled until the typed phrase names the operation and the count, then starts with one click', async () => {
    const { fake } = await openBatch();
    paste(UIDS.join('\n'));
    await screen.findByText('Anonymise 20 users');
    fireEvent.click(screen.getByLabelText('Delete'));
    const field = await screen.findByLabelText('Type DELETE 20 to confirm');
    const start = () => screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(start().disabled).toBe(true);
    for (const wrong of ['DELETE', 'DELETE 19', 'ANONYMISE 20', 'delete 20']) {
      fireEvent.change(field, { target: { value: wrong } });
      expect(start().disabled).toBe(true);
    }
    fireEvent.click(start());
    fireEvent.change(field, { target: { value: ' DELETE 20 ' } });
    expect(start().disabled).toBe(false);
    expect(screen.getByText('✓ Matches')).toBeTruthy();
    expect(fake.callsOf('batch.start')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Reference for the whole batch (optional)'), { target: { value: 'REQ-77' } });
    fireEvent.click(start());
    await waitFor(() => expect(fake.callsOf('batch.start')).toHaveLength(1));
    expect(fake.callsOf('batch.start')[0]).toMatchObject({ action: 'delete', confirmation: ' DELETE 20 ', reference: 'REQ-77', logoutFirst: true, profileId: 'sandbox' });
    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
  });

  it('asks for the phrase again when another profile becomes active (a live one, here)', async () => {
    await openBatch({ profiles: [LOCAL_PROFILE, LIVE_PROFILE], activeId: LOCAL_PROFILE.id });
    paste(UIDS.join('\n'));
    await screen.findByText('Anonymise 20 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 20 to confirm'), { target: { value: 'ANONYMISE 20' } });
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Active profile'), { target: { value: LIVE_PROFILE.id } });
    const dialog = await screen.findByRole('dialog', { name: 'Switch to a live profile?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Switch to live data' }));
    expect(await screen.findByText('LIVE DATA: this changes a real user on debate.example.org.')).toBeTruthy();
    expect((screen.getByLabelText('Type ANONYMISE 20 to confirm') as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('checks the list against the service on request, with progress and the first missing uids', async () => {
    const { fake } = await openBatch();
    paste(UIDS.join('\n'));
    await screen.findByText('Anonymise 20 users');
    fireEvent.click(screen.getByRole('button', { name: 'Check against the service' }));
    await waitFor(() => expect(fake.callsOf('batch.check')).toHaveLength(1));
    expect(fake.callsOf('batch.check')[0]).toMatchObject({ profileId: 'sandbox' });
    const jobId = `job-${fake.calls.findIndex((call) => call.method === 'batch.check') + 1}`;
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.check', page: 1, totalPages: 3, collected: 100 }));
    expect(await screen.findByText('Reading the users list: page 1 of 3, 100 users so far…')).toBeTruthy();
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.check', status: 'completed', result: { users: 250, existing: 18, missing: 2, missingSample: ['support-7', 'support-19'], trimmable: { count: 0, sample: [] } } }));
    expect(await screen.findByText(/^18 of 20 uids exist on the service; 2 do not\./)).toBeTruthy();
    const missing = screen.getByText('Not on the service (first ones)').nextElementSibling!;
    expect([...missing.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['support-7', 'support-19']);
    expect(fake.callsOf('batch.start')).toHaveLength(0);
  });

  it('draws a uid pasted with spaces at an end as it is, in the check’s missing list and in the results, never trimmed', async () => {
    const { fake } = await openBatch();
    paste(['support-1', 'support-2', ' user-000490 '].join('\n'));
    await screen.findByText('Anonymise 3 users');
    fireEvent.click(screen.getByRole('button', { name: 'Check against the service' }));
    await waitFor(() => expect(fake.callsOf('batch.check')).toHaveLength(1));
    const checkJob = `job-${fake.calls.findIndex((call) => call.method === 'batch.check') + 1}`;
    act(() => fake.emitEvent('job.finished', { jobId: checkJob, kind: 'batch.check', status: 'completed', result: { users: 600, existing: 2, missing: 1, missingSample: [' user-000490 '], trimmable: { count: 0, sample: [] } } }));
    const missing = (await screen.findByText('Not on the service (first ones)')).nextElementSibling!;
    expect([...missing.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['␣user-000490␣']);
    expect(within(missing as HTMLElement).getAllByRole('img', { name: 'space (U+0020)' })).toHaveLength(2);

    fireEvent.change(screen.getByLabelText('Type ANONYMISE 3 to confirm'), { target: { value: 'ANONYMISE 3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(fake.callsOf('batch.start')).toHaveLength(1));
    expect(fake.callsOf('batch.start')[0]).toMatchObject({ useTrimmed: false });
    const jobId = `job-${fake.calls.findIndex((call) => call.method === 'batch.start') + 1}`;
    const batchId = (await fake.bridge['batch.list']({})).jobs[0]!.batchId;
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.run', status: 'completed', result: { batchId, total: 3, counts: { done: 2, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 0 }, state: 'finished' } }));
    const table = await screen.findByRole('table', { name: `Results of batch ${batchId}` });
    const row = within(table).getAllByRole('row').find((candidate) => candidate.textContent?.includes('user-000490'))!;
    expect(row.querySelector('.batch-results__uid')!.textContent).toBe('␣user-000490␣');
    expect(row.textContent).toContain('Not found (already erased or never existed)');
  });

  it('calls a pasted uid whose trimmed form exists a likely mistake, and sends the trimmed form only by the operator’s explicit choice', async () => {
    const { fake } = await openBatch();
    paste(['support-1', ' user-000490 ', 'support-2'].join('\n'));
    await screen.findByText('Anonymise 3 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 3 to confirm'), { target: { value: 'ANONYMISE 3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check against the service' }));
    await waitFor(() => expect(fake.callsOf('batch.check')).toHaveLength(1));
    const checkJob = `job-${fake.calls.findIndex((call) => call.method === 'batch.check') + 1}`;
    const trimmable = { count: 1, sample: [{ line: 2, uid: ' user-000490 ', trimmed: 'user-000490' }] };
    act(() => fake.emitEvent('job.finished', { jobId: checkJob, kind: 'batch.check', status: 'completed', result: { users: 600, existing: 2, missing: 1, missingSample: [' user-000490 '], trimmable } }));
    const callout = await screen.findByRole('region', { name: 'Likely mistake: spaces at an end' });
    expect(within(callout).getByText(/^1 uid begins or ends with spaces and is not on the service, but the same uid without them is\./)).toBeTruthy();
    expect(within(callout).getByRole('listitem').textContent).toBe('line 2 ␣user-000490␣ → user-000490');

    fireEvent.click(within(callout).getByRole('button', { name: 'Use the trimmed uid' }));
    expect(within(callout).getByText(/^Your choice: the trimmed uid is sent instead of the one pasted\./)).toBeTruthy();
    // What will be sent changed: the phrase typed before the choice confirms nothing.
    expect((screen.getByLabelText('Type ANONYMISE 3 to confirm') as HTMLInputElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 3 to confirm'), { target: { value: 'ANONYMISE 3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(fake.callsOf('batch.start')).toHaveLength(1));
    expect(fake.callsOf('batch.start')[0]).toMatchObject({ useTrimmed: true, confirmation: 'ANONYMISE 3' });

    const jobId = `job-${fake.calls.findIndex((call) => call.method === 'batch.start') + 1}`;
    const batchId = (await fake.bridge['batch.list']({})).jobs[0]!.batchId;
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.run', status: 'completed', result: { batchId, total: 3, counts: { done: 3, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 }, state: 'finished' } }));
    const table = await screen.findByRole('table', { name: `Results of batch ${batchId}` });
    const cell = within(table).getAllByRole('row')[2]!.querySelector('.batch-results__uid')!;
    expect(cell.textContent).toBe('user-000490pasted as ␣user-000490␣ · trimmed by your choice');
  });

  it('a new list forgets the choice of trimmed uids', async () => {
    const { fake } = await openBatch();
    paste(' user-000490 ');
    await screen.findByText('Anonymise 1 user');
    fireEvent.click(screen.getByRole('button', { name: 'Check against the service' }));
    await waitFor(() => expect(fake.callsOf('batch.check')).toHaveLength(1));
    const checkJob = `job-${fake.calls.findIndex((call) => call.method === 'batch.check') + 1}`;
    act(() => fake.emitEvent('job.finished', { jobId: checkJob, kind: 'batch.check', status: 'completed', result: { users: 600, existing: 0, missing: 1, missingSample: [' user-000490 '], trimmable: { count: 1, sample: [{ line: 1, uid: ' user-000490 ', trimmed: 'user-000490' }] } } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use the trimmed uid' }));
    paste(' user-000490 \n support-3');
    await screen.findByText('Anonymise 2 users');
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 2 to confirm'), { target: { value: 'ANONYMISE 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(fake.callsOf('batch.start')).toHaveLength(1));
    expect(fake.callsOf('batch.start')[0]).toMatchObject({ useTrimmed: false });
  });

  it('shows the run’s progress: counts, rate, time left, bar and the service’s slow-down', async () => {
    const { fake } = await openBatch();
    const { jobId, batchId } = await startBatch(fake);
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId) }));
    expect(await screen.findByText('10 of 20 finished')).toBeTruthy();
    const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling!.textContent;
    expect(figure('Done')).toBe('7');
    expect(figure('Not found')).toBe('2');
    expect(figure('Failed')).toBe('1');
    expect(figure('Remaining')).toBe('10');
    expect(figure('Rate')).toBe('2.5 per second');
    expect(figure('Time left')).toBe('4 s');
    expect((screen.getByRole('progressbar', { name: 'Items finished' }) as HTMLProgressElement).value).toBe(10);
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId, { state: 'waiting', waitSeconds: 30, secondsLeft: 125 }) }));
    expect(await screen.findByText('Waiting 30 s: the service asked to slow down.')).toBeTruthy();
    expect(figure('Time left')).toBe('2 min 05 s');
  });

  it('keeps following the run while the operator looks at another view', async () => {
    const { fake } = await openBatch();
    const { jobId, batchId } = await startBatch(fake);
    act(() => useUiStore.getState().setView('audit'));
    await screen.findByRole('heading', { name: 'Audit trail', level: 2 });
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId) }));
    act(() => useUiStore.getState().setView('batch'));
    expect(await screen.findByText('10 of 20 finished')).toBeTruthy();
    act(() => useUiStore.getState().setView('users'));
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.run', status: 'completed', result: { batchId, total: 20, counts: { done: 20, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 }, state: 'finished' } }));
    act(() => useUiStore.getState().setView('batch'));
    expect(await screen.findByText('Batch finished: all 20 items have their outcome')).toBeTruthy();
  });

  it('pauses, resumes and cancels through the bridge; a cancelled run can be resumed', async () => {
    const { fake } = await openBatch();
    const { jobId, batchId } = await startBatch(fake);
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(fake.callsOf('batch.setPaused')).toEqual([{ jobId, paused: true }]));
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId, { state: 'paused' }) }));
    expect(await screen.findByText(/^Paused since .+: nothing new is sent until you resume\.$/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(fake.callsOf('batch.setPaused')).toEqual([{ jobId, paused: true }, { jobId, paused: false }]));
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeTruthy();

    expect(screen.getByText('Cancel: the items in flight finish, nothing more is sent; you can resume later.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel batch' }));
    await waitFor(() => expect(fake.callsOf('jobs.cancel')).toEqual([{ jobId }]));
    // The run stops with the counts it last reported (10 finished): the job is left unfinished, resumable.
    expect(await screen.findByText('Batch stopped: 10 of 20 items unfinished')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    fireEvent.change(await screen.findByLabelText('Type ANONYMISE 10 to confirm'), { target: { value: 'ANONYMISE 10' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Resume' }).at(-1)!);
    await waitFor(() => expect(fake.callsOf('batch.resume')).toEqual([{ batchId, concurrency: 4, confirmation: 'ANONYMISE 10' }]));
  });

  it('the progress panel and the jobs table say the same state and counts: running, paused, running again, finished', async () => {
    const { fake } = await openBatch();
    const { jobId, batchId } = await startBatch(fake);
    const panel = await screen.findByRole('region', { name: 'Progress' });
    const row = async () => within(await screen.findByRole('table', { name: 'Batches on this computer' })).getAllByRole('row').find((candidate) => candidate.textContent?.includes(batchId))!;
    const figure = (label: string) => within(panel).getByText(label, { selector: 'dt' }).nextSibling!.textContent;
    const agree = async (state: string, panelState: string | RegExp, counts: string, done: string) => {
      await waitFor(async () => expect((await row()).querySelector('.tag')!.textContent).toBe(state));
      expect(within(panel).getByText(panelState)).toBeTruthy();
      expect((await row()).textContent).toContain(counts);
      expect(figure('Done')).toBe(done);
    };

    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId, { revision: 1 }) }));
    await agree('Running', 'Running', '7 done · 2 not found · 1 failed · 10 unfinished', '7');

    // Paused: the answer to Pause says so on both at once; the items in flight that end are counted on both.
    fireEvent.click(within(panel).getByRole('button', { name: 'Pause' }));
    // Paused since the answer came (the run's report says since when, later).
    const pausedSince = /^Paused since \d{1,2}:\d\d\s?[AP]M: nothing new is sent until you resume\.$/;
    await agree('Paused', pausedSince, '7 done · 2 not found · 1 failed · 10 unfinished', '7');
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress(batchId, { revision: 2, state: 'paused', inFlight: 0, counts: { done: 9, doneBeforeInterruption: 1, notFound: 2, failed: 1, unfinished: 7 } }) }));
    await agree('Paused', pausedSince, '10 done · 2 not found · 1 failed · 7 unfinished', '10');

    fireEvent.click(within(panel).getByRole('button', { name: 'Resume' }));
    await agree('Running', 'Running', '10 done · 2 not found · 1 failed · 7 unfinished', '10');

    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.run', status: 'completed', result: { batchId, total: 20, counts: { done: 17, doneBeforeInterruption: 1, notFound: 2, failed: 0, unfinished: 0 }, state: 'finished' } }));
    expect(await screen.findByText('Batch finished: all 20 items have their outcome')).toBeTruthy();
    await waitFor(async () => expect((await row()).querySelector('.tag')!.textContent).toBe('Finished'));
    expect((await row()).textContent).toContain('18 done · 2 not found · 0 failed');
    const summary = screen.getByRole('list', { name: 'Items by outcome' });
    expect(within(summary).getByText('Done').parentElement!.textContent).toMatch(/^17/);
  });

  it('shows the results when the run finishes, failed ones first on demand, and exports them as CSV', async () => {
    const createObjectURL = vi.fn((blob: Blob) => (void blob, 'blob:fake'));
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    const { fake } = await openBatch();
    const { jobId, batchId } = await startBatch(fake);
    const counts = { done: 16, doneBeforeInterruption: 1, notFound: 2, failed: 1, unfinished: 0 };
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'batch.run', status: 'completed', result: { batchId, total: 20, counts, state: 'finished' } }));
    expect(await screen.findByText('Batch finished: all 20 items have their outcome')).toBeTruthy();
    const summary = screen.getByRole('list', { name: 'Items by outcome' });
    expect(within(summary).getByText('Not found (already erased or never existed)').parentElement!.textContent).toMatch(/^2/);
    const table = await screen.findByRole('table', { name: `Results of batch ${batchId}` });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    fireEvent.click(screen.getByLabelText('Failed only (1)'));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText(FAKE_FAILURE_REASON)).toBeTruthy();
    expect(within(table).getByText('support-20')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Export results (CSV)' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(fake.callsOf('batch.results').at(-1)).toEqual({ batchId, format: 'csv' });
    expect(clicks[0]!.download).toBe(`batch-${batchId}.csv`);
    const blob = createObjectURL.mock.calls[0]![0];
    const lines = (await blob.text()).split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[1]).toMatch(/^1,support-1,,done,200/);
    expect(await screen.findByText(`Results saved as batch-${batchId}.csv (20 rows).`)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'New batch' }));
    expect(((await screen.findByLabelText('uids to erase')) as HTMLTextAreaElement).value).toBe('');
  });

  it('follows a job that runs in the app since before a reload, from its events', async () => {
    const running: BatchJobSummary = {
      batchId: '20261122-110000-0a0b0c',
      action: 'anonymize',
      profileId: 'sandbox',
      profileName: 'Sandbox',
      baseUrl: 'http://127.0.0.1:4600',
      logoutFirst: true,
      source: 'pasted list',
      createdAt: '2026-11-22T11:00:00.000Z',
      total: 20,
      state: 'running',
      counts: { done: 3, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 17 },
      revision: 0,
    };
    const { fake } = await openBatch({ batchJobs: [running] });
    const offers = await screen.findByRole('list', { name: 'Batches to resume' });
    fireEvent.click(within(offers).getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText(/^Waiting for this batch’s progress/)).toBeTruthy();
    act(() => fake.emitEvent('job.progress', { jobId: 'job-77', kind: 'batch.run', ...progress(running.batchId) }));
    expect(await screen.findByText('10 of 20 finished')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(fake.callsOf('batch.setPaused')).toEqual([{ jobId: 'job-77', paused: true }]));
    act(() => fake.emitEvent('job.finished', { jobId: 'job-77', kind: 'batch.run', status: 'completed', result: { batchId: running.batchId, total: 20, counts: { done: 20, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 }, state: 'finished' } }));
    // The run ended: its results panel replaces the progress.
    expect(await screen.findByRole('button', { name: 'Export results (CSV)' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Progress' })).toBeNull();
  });

  it('offers an unfinished job on opening and resumes it after the phrase for the unfinished count', async () => {
    const unfinished: BatchJobSummary = {
      batchId: '20261121-093000-abcdef',
      action: 'delete',
      profileId: LIVE_PROFILE.id,
      profileName: LIVE_PROFILE.name,
      baseUrl: LIVE_PROFILE.baseUrl,
      logoutFirst: false,
      source: 'closures.csv',
      createdAt: '2026-11-21T09:30:00.000Z',
      total: 250,
      state: 'unfinished',
      counts: { done: 120, doneBeforeInterruption: 0, notFound: 10, failed: 0, unfinished: 120 },
      revision: 0,
    };
    const { fake } = await openBatch({ profiles: [LIVE_PROFILE], batchJobs: [unfinished] });
    const offers = await screen.findByRole('list', { name: 'Batches to resume' });
    expect(within(offers).getByText(/^Batch from .*: 120 of 250 unfinished$/)).toBeTruthy();
    fireEvent.click(within(offers).getByRole('button', { name: 'Resume' }));
    // The job's own profile, marked live as everywhere else.
    expect(await screen.findByText('LIVE DATA: this changes a real user on debate.example.org.')).toBeTruthy();
    const field = screen.getByLabelText('Type DELETE 120 to confirm');
    const resume = () => screen.getAllByRole('button', { name: 'Resume' }).at(-1) as HTMLButtonElement;
    fireEvent.change(field, { target: { value: 'DELETE 250' } });
    expect(resume().disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'DELETE 120' } });
    expect(resume().disabled).toBe(false);
    fireEvent.click(resume());
    await waitFor(() => expect(fake.callsOf('batch.resume')).toEqual([{ batchId: unfinished.batchId, concurrency: 4, confirmation: 'DELETE 120' }]));
    expect(await screen.findByRole('heading', { name: 'Progress' })).toBeTruthy();
  });
  it('shows a damaged job with which file, why, what it means and what to do, and never offers it for resuming', async () => {
    const batchId = '20261121-093000-abcdef';
    const path = `/data/batches/${batchId}/plan.json`;
    const damaged: BatchJobDamage = {
      batchId,
      createdAt: '2026-11-21T09:30:00Z',
      file: 'plan.json',
      path,
      text: { id: 'batch.damaged.file', params: { path, why: { id: 'batch.file.notAsWritten' }, job: batchId } },
      quote: { from: 'system', text: 'action: Invalid option: expected one of "anonymize"|"delete"' },
    };
    const app = renderApp({});
    await screen.findByRole('tablist', { name: 'Main' });
    const list = app.fake.bridge['batch.list'];
    vi.spyOn(app.fake.bridge, 'batch.list').mockImplementation(async (input) => ({ ...(await list(input)), damaged: [damaged] }));
    act(() => useUiStore.getState().setView('batch'));

    const region = await screen.findByRole('region', { name: 'Damaged batches: nothing more will be sent from them' });
    expect(within(region).getByText(/^Batch from /)).toBeTruthy();
    expect(within(region).getByText(`${path} cannot be used (a field is not as Privacy Desk writes it), so batch job ${batchId} cannot be resumed: nothing more will be sent from it.`, { exact: false })).toBeTruthy();
    expect(within(region).getByText(/start the uids it did not finish as a new batch\.$/)).toBeTruthy();
    expect(within(region).getByText(/action: Invalid option/)).toBeTruthy();
    expect(within(region).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Batches to resume' })).toBeNull();
    // Not "No batch yet" beside it.
    expect(screen.queryByText('No batch yet.')).toBeNull();
  });
  it('a job paused in another process reads Paused in the jobs table and its offer, and is not offered for resuming here', async () => {
    const pausedElsewhere = seededJob({ total: 250, state: 'paused', counts: { done: 120, doneBeforeInterruption: 0, notFound: 10, failed: 0, unfinished: 120 } });
    await openBatch({ batchJobs: [pausedElsewhere] });
    const table = await screen.findByRole('table', { name: 'Batches on this computer' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Paused')).toBeTruthy();
    expect(within(row).getByText(/^In another process/)).toBeTruthy();
    const offers = screen.getByRole('list', { name: 'Batches to resume' });
    expect(within(offers).getByText(/· Paused$/)).toBeTruthy();
    expect(within(offers).queryByRole('button', { name: 'Resume' })).toBeNull();
  });
});

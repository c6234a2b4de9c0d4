import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, expect } from 'vitest';
import type { BatchJobSummary, BatchProgress } from '../../../../shared/batch';
import { createQueryClient } from '../../../app-root';
import { BridgeProvider } from '../../../bridge/bridge-context';
import { createI18n } from '../../../i18n';
import { useNotices } from '../../../state/notices-store';
import { createFakeBridge, LOCAL_PROFILE, type FakeBridgeOptions } from '../../../test/fake-bridge';
import { useBatchDraft } from '../batch-draft-store';
import { resetBatchRun } from '../batch-run-store';
import { BatchView } from '../batch-view';

/**
 * The Batch screen alone over the fake bridge (the whole App is not the point of these tests): the
 * support agent's steps as helpers, so each test reads as the path it walks.
 */

beforeEach(() => {
  resetBatchRun();
  useBatchDraft.getState().clear();
  useNotices.setState({ notices: [] });
});

afterEach(() => {
  cleanup();
});

export type FakeBridge = ReturnType<typeof createFakeBridge>;

export function renderBatch(options: FakeBridgeOptions & { language?: 'en' | 'fr' } = {}) {
  const fake = createFakeBridge(options);
  const profiles = options.profiles ?? [LOCAL_PROFILE];
  const profile = profiles.find((candidate) => candidate.id === options.activeId) ?? profiles[0] ?? LOCAL_PROFILE;
  const i18n = createI18n(options.language ?? 'en');
  const queryClient = createQueryClient();
  const tree = (key: number) => (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <BridgeProvider client={fake.bridge} events={fake.events}>
          <BatchView key={key} profile={profile} />
        </BridgeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
  let mounts = 0;
  const utils = render(tree(mounts));
  /** The screen left and opened again (another tab and back): the drafts and runs kept outside it stay. */
  const reopen = () => utils.rerender(tree(++mounts));
  return { ...utils, fake, queryClient, i18n, reopen };
}

export function paste(text: string, label = 'uids to erase') {
  const box = screen.getByLabelText(label);
  fireEvent.paste(box);
  fireEvent.change(box, { target: { value: text } });
}

export const uidsOf = (count: number, prefix = 'support') => Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`);

/** The id the fake gave the job started by the n-th call of `method` (job-<index of the call + 1>). */
export function jobIdOf(fake: FakeBridge, method: 'batch.start' | 'batch.resume' | 'batch.check', nth = 0): string {
  const indexes = fake.calls.flatMap((call, index) => (call.method === method ? [index] : []));
  return `job-${(indexes[nth] as number) + 1}`;
}

/** Paste, wait for the preview, type the phrase, click Start. */
export async function startBatch(fake: FakeBridge, uids: string[], action: 'anonymize' | 'delete' = 'anonymize') {
  paste(uids.join('\n'));
  await screen.findByText(`Anonymise ${uids.length} user${uids.length === 1 ? '' : 's'}`);
  if (action === 'delete') fireEvent.click(screen.getByLabelText('Delete'));
  const phrase = `${action === 'delete' ? 'DELETE' : 'ANONYMISE'} ${uids.length}`;
  fireEvent.change(await screen.findByLabelText(`Type ${phrase} to confirm`), { target: { value: phrase } });
  const starts = fake.callsOf('batch.start').length;
  fireEvent.click(screen.getByRole('button', { name: 'Start' }));
  await waitFor(() => expect(fake.callsOf('batch.start')).toHaveLength(starts + 1));
  const jobId = jobIdOf(fake, 'batch.start', starts);
  const batchId = (await fake.bridge['batch.list']({})).jobs[0]!.batchId;
  return { jobId, batchId };
}

export const progressOf = (batchId: string, more: Partial<BatchProgress> = {}): BatchProgress => ({
  batchId,
  total: 20,
  counts: { done: 6, doneBeforeInterruption: 1, notFound: 2, failed: 1, unfinished: 10 },
  inFlight: 4,
  ratePerSecond: 2.5,
  secondsLeft: 4,
  state: 'running',
  ...more,
});

export function emitProgress(fake: FakeBridge, jobId: string, progress: BatchProgress) {
  act(() => fake.emitEvent('job.progress', { jobId, kind: 'batch.run', ...progress }));
}

/** A job already in the data folder. */
export function seededJob(more: Partial<BatchJobSummary> = {}): BatchJobSummary {
  return {
    batchId: '20261121-093000-abcdef',
    action: 'delete',
    profileId: LOCAL_PROFILE.id,
    profileName: LOCAL_PROFILE.name,
    baseUrl: LOCAL_PROFILE.baseUrl,
    logoutFirst: true,
    source: 'closures.csv',
    createdAt: '2026-11-21T09:30:00.000Z',
    total: 6,
    state: 'unfinished',
    counts: { done: 4, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 2 },
    revision: 0,
    ...more,
  };
}

/** The Start, Resume or Send again button of the confirmation form on screen (the offers have Resume buttons too). */
export function confirmButton(name: 'Start' | 'Resume' | 'Send again' | 'Lancer' | 'Reprendre' | 'Renvoyer'): HTMLButtonElement | null {
  const form = document.querySelector('form.batch-confirm');
  if (!form) return null;
  return [...form.querySelectorAll('button')].find((button) => button.textContent === name) ?? null;
}

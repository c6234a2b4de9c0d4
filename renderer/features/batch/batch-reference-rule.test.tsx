import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { useUiStore } from '../../state/ui-store';
import { useBatchDraft } from './batch-draft-store';
import { resetBatchRun } from './batch-run-store';

beforeEach(() => {
  resetBatchRun();
  useBatchDraft.getState().clear();
});

/** The batch's reference meets the reference rule as it is typed (shared/reference.ts), as the erasure dialog's does. */
describe('the Batch screen’s reference', () => {
  it('says at once that a reference holding a bidi override cannot be kept, naming it', async () => {
    renderApp();
    await screen.findByRole('tablist', { name: 'Main' });
    act(() => useUiStore.getState().setView('batch'));
    await screen.findByRole('heading', { name: 'Batch erasure', level: 2 });
    const field = screen.getByLabelText('Reference for the whole batch (optional)');
    fireEvent.change(field, { target: { value: 'REQ-1\u202eevil' } });
    expect(await screen.findByText(/The reference holds an invisible or control character \(RLO, U\+202E, character 6\)/)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'REQ-1' } });
    expect(screen.queryByText(/invisible or control character/)).toBeNull();
  });
});

describe('a batch reference longer than the rule allows', () => {
  it('is kept whole in the field, said too long, and Start waits until it is corrected', async () => {
    const { fake } = renderApp({ userCount: 5 });
    await screen.findByRole('tablist', { name: 'Main' });
    act(() => useUiStore.getState().setView('batch'));
    await screen.findByRole('heading', { name: 'Batch erasure', level: 2 });
    fireEvent.change(screen.getByLabelText('uids to erase'), { target: { value: 'user-1\nuser-2' } });
    await screen.findByText('Anonymise 2 users');
    const pasted = `DPO-2026-${'x'.repeat(291)}`;
    const field = screen.getByLabelText<HTMLInputElement>('Reference for the whole batch (optional)');
    fireEvent.change(field, { target: { value: pasted } });
    // Nothing is cut without a word: the field holds all 300 characters, and says why it cannot be kept.
    expect(field.value).toHaveLength(300);
    expect(await screen.findByText(/The reference is 300 characters long; references are at most 200/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Type ANONYMISE 2 to confirm'), { target: { value: 'ANONYMISE 2' } });
    expect(screen.getByText('Correct the batch’s reference above first: it cannot be recorded as it is.')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Start' }).disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'DPO-2026-118' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Start' }).disabled).toBe(false);
    expect(fake.callsOf('batch.start')).toEqual([]);
  });
});

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

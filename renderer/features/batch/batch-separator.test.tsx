import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { useUiStore } from '../../state/ui-store';
import { useBatchDraft } from './batch-draft-store';
import { resetBatchRun } from './batch-run-store';

beforeEach(() => {
  resetBatchRun();
  useBatchDraft.getState().clear();
});

/** The list's input options: what separates the columns is the operator's to choose, as the uid column is. */
describe('the Batch screen’s separator choice', () => {
  it('sends the chosen separator with the preview, or reads each line whole; a new file guesses again', async () => {
    const { fake } = renderApp();
    await screen.findByRole('tablist', { name: 'Main' });
    act(() => useUiStore.getState().setView('batch'));
    await screen.findByRole('heading', { name: 'Batch erasure', level: 2 });
    const box = screen.getByLabelText('uids to erase');
    fireEvent.paste(box);
    fireEvent.change(box, { target: { value: 'DSR-1;user-000070\nDSR-2;user-000071' } });
    await waitFor(() => expect(fake.callsOf('batch.preview')).toHaveLength(1));
    expect(fake.callsOf('batch.preview')[0]).toMatchObject({ kind: 'auto' });
    expect(fake.callsOf('batch.preview')[0]).not.toHaveProperty('separator');

    const separator = screen.getByLabelText('Columns separated by');
    expect([...(separator as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Automatic (from the first line)',
      'Commas (,)',
      'Semicolons (;)',
      'Tabs',
      'Nothing: one uid a line, each line whole',
    ]);
    fireEvent.change(separator, { target: { value: 'semicolon' } });
    await waitFor(() => expect(fake.callsOf('batch.preview').at(-1)).toMatchObject({ kind: 'auto', separator: 'semicolon' }));
    fireEvent.change(separator, { target: { value: 'none' } });
    await waitFor(() => expect(fake.callsOf('batch.preview').at(-1)).toMatchObject({ kind: 'list' }));
    expect(fake.callsOf('batch.preview').at(-1)).not.toHaveProperty('separator');

    const file = new File(['uid;référence\r\nuser-000070;DSR-1\r\n'], 'excel-fr.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('Open file…'), { target: { files: [file] } });
    await waitFor(() => expect(fake.callsOf('batch.preview').at(-1)).toMatchObject({ sourceName: 'excel-fr.csv', kind: 'auto' }));
    expect(fake.callsOf('batch.preview').at(-1)).not.toHaveProperty('separator');
    expect((screen.getByLabelText('Columns separated by') as HTMLSelectElement).value).toBe('');
  });
});

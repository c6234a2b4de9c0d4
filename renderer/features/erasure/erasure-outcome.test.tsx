import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErrorInit } from '../../../shared/errors';
import { msg } from '../../../shared/messages';
import { renderApp } from '../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

/** Opens the dialog from the row, types the uid, confirms, and lets the countdown run out against a failing service. */
async function eraseAndFail(uid: string, failure: ErrorInit) {
  const user = userEvent.setup();
  const rendered = renderApp();
  await screen.findByRole('table', { name: 'Users on page 1' });
  await user.click(screen.getByRole('button', { name: `Delete ${uid}` }));
  const dialog = await screen.findByRole('dialog');
  await user.type(await within(dialog).findByLabelText('Type the uid to confirm'), uid);
  rendered.fake.failNext('users.erase', failure);
  vi.useFakeTimers();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
  }
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
  }
  vi.useRealTimers();
  await within(dialog).findByRole('alert');
  return { ...rendered, user, dialog };
}

/** Nothing in the dialog can send the act again with one click: no typed confirmation kept, no Confirm that works. */
function expectDisarmed(dialog: HTMLElement) {
  expect(within(dialog).queryByLabelText('Type the uid to confirm')).toBeNull();
  const confirm = within(dialog).queryByRole('button', { name: 'Confirm' }) as HTMLButtonElement | null;
  expect(confirm === null || confirm.disabled).toBe(true);
  expect(dialog.textContent).not.toContain('✓ Matches the uid');
}

describe('the erasure dialog after an outcome', () => {
  it('unknown: keeps no armed confirmation, and offers to check the user (look it up), never to send again', async () => {
    const { user, dialog, fake } = await eraseAndFail('dave smith', { code: 'UNEXPECTED_RESPONSE', status: 200, outcome: 'unknown', message: 'The service answered 200 but says it failed.' });
    expect(within(dialog).getByRole('alert').querySelector('[data-outcome]')?.getAttribute('data-outcome')).toBe('unknown');
    expectDisarmed(dialog);
    expect(within(dialog).queryByRole('button', { name: /Start again|Try again|Retry/ })).toBeNull();
    expect(dialog.textContent).toContain('Check the user before anything else');
    await user.click(within(dialog).getByRole('button', { name: 'Look it up' }));
    // The dialog gives way to "Find a person", which looks the uid up on every page.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByRole('searchbox', { name: 'Find a person — every page' }) as HTMLInputElement).value).toBe('dave smith');
    await waitFor(() => expect(fake.callsOf('users.search').at(-1)).toMatchObject({ text: 'dave smith' }));
    expect(fake.callsOf('users.erase')).toHaveLength(1);
  });

  it('refused: the typed uid is cleared; "Start again" asks for a new typed confirmation', async () => {
    const { user, dialog, fake } = await eraseAndFail('dave smith', {
      code: 'INSUFFICIENT_SCOPE',
      status: 403,
      requestId: 'req-403',
      text: msg('act.scopeMissing', { purpose: msg('purpose.deleteUser', { uid: 'dave smith' }) }),
    });
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Outcome: Refused by the service — nothing was changed\./);
    expectDisarmed(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Start again' }));
    const typed = within(dialog).getByLabelText('Type the uid to confirm') as HTMLInputElement;
    expect(typed.value).toBe('');
    expect((within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(fake.callsOf('users.erase')).toHaveLength(1);
  });

  it('not found: nothing to confirm again; Close, or look the uid up', async () => {
    const { dialog } = await eraseAndFail('dave smith', { code: 'NOT_FOUND', status: 404, outcome: 'refused', requestId: 'req-404', message: 'No user has this uid.' });
    expectDisarmed(dialog);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Look it up' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Start again' })).toBeNull();
  });
});

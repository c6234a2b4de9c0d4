import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

async function actOnUid(action: 'Anonymise' | 'Delete', uid: string) {
  const user = userEvent.setup();
  const rendered = renderApp();
  await screen.findByRole('table', { name: 'Users on page 1' });
  const box = screen.getByRole('region', { name: 'Act on a uid' });
  fireEvent.change(within(box).getByLabelText('uid'), { target: { value: uid } });
  await user.click(within(box).getByRole('button', { name: action }));
  const dialog = await screen.findByRole('dialog');
  return { ...rendered, user, dialog };
}

describe('erasure dialog: who the uid belongs to', () => {
  it('shows the name, e-mail, created date and contribution counts of a uid on the loaded page', async () => {
    const user = userEvent.setup();
    renderApp();
    await screen.findByRole('table', { name: 'Users on page 1' });
    await user.click(screen.getByRole('button', { name: 'Delete dave smith' }));
    const dialog = await screen.findByRole('dialog');
    const identity = within(dialog).getByRole('region', { name: 'Who this uid belongs to' });
    // makeUser(index 5): "User 6", user6@example.com, created 2025-01-06, 15 messages, 35 votes.
    expect(identity.textContent).toContain('User 6');
    expect(identity.textContent).toContain('user6@example.com');
    expect(identity.textContent).toMatch(/2025/);
    expect(identity.textContent).toContain('15 messages · 35 votes');
    expect(within(dialog).getByLabelText('Type the uid to confirm')).toBeTruthy();
  });

  it('the same from "Act on a uid" when the typed uid is on the loaded page', async () => {
    const { dialog } = await actOnUid('Anonymise', 'alice@example.com');
    expect(within(dialog).getByRole('region', { name: 'Who this uid belongs to' }).textContent).toContain('user1@example.com');
  });

  it('says a uid the console has not seen is not on the list before any ceremony, and sends nothing on Close', async () => {
    const { user, dialog, fake } = await actOnUid('Delete', 'jean dupont');
    expect(dialog.textContent).toContain('Not seen on the service’s list — check the uid.');
    expect(within(dialog).queryByLabelText('Type the uid to confirm')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(within(dialog).queryByRole('timer')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('users.erase')).toEqual([]);
  });

  it('after "Continue anyway" and a NOT_FOUND, offers Close instead of Confirm again', async () => {
    const { user, dialog, fake } = await actOnUid('Delete', 'jean dupont');
    await user.click(within(dialog).getByRole('button', { name: 'Continue anyway' }));
    expect(dialog.textContent).toContain('Not seen on the service’s list — check the uid.');
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'jean dupont');
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
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('NOT_FOUND');
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('users.erase')).toHaveLength(1);
  });
});

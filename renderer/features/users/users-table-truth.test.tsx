import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app';
import { ERASED_SINCE_POLL_MS } from './use-erased-since';
import { confirmThroughCountdown } from '../../test/countdown';

afterEach(() => {
  vi.useRealTimers();
});

const rowOf = (uid: string) => screen.getByRole('button', { name: `Show details of ${uid}` }).closest('tr')!;

async function start() {
  // The window's clock and its polling move only when the test moves them (other timers run as usual).
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setInterval', 'clearInterval'] });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const rendered = renderApp();
  await screen.findByRole('table', { name: 'Users on page 1' });
  return { ...rendered, user };
}

describe('the users table says what is still true of the page it shows', () => {
  it('marks a row the command line erased since the page was read, says by whom, and offers no act on it', async () => {
    const { fake } = await start();
    const pagination = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pagination.textContent).toContain('30 users');
    expect(pagination.textContent).toContain('read just now');
    expect(within(rowOf('dave smith')).getByRole('button', { name: 'Delete dave smith' })).toBeTruthy();

    fake.eraseElsewhere('dave smith', 'delete');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ERASED_SINCE_POLL_MS);
    });
    await waitFor(() => expect(rowOf('dave smith').textContent).toContain('Deleted from the command line'));
    const row = rowOf('dave smith');
    expect(within(row).queryByRole('button', { name: /^(Anonymise|Delete|Test logout) dave smith$/ })).toBeNull();
    // The other rows keep their actions; the page says how many of its users changed, and that it is older now.
    expect(within(rowOf('Carol')).getByRole('button', { name: 'Delete Carol' })).toBeTruthy();
    expect(screen.getByRole('status', { name: /erased since/ }).textContent).toContain('1 user on this page was erased since the page was read');
    act(() => vi.advanceTimersByTime(3 * 60_000));
    expect(pagination.textContent).toContain('read 3 min ago');

    // Its detail panel says the same and offers nothing either.
    fireEvent.click(within(row).getByRole('button', { name: 'Show details of dave smith' }));
    const panel = await screen.findByRole('complementary', { name: 'User details' });
    expect(panel.textContent).toContain('Deleted from the command line');
    expect(within(panel).queryByRole('button', { name: /^(Anonymise|Delete) dave smith$/ })).toBeNull();
  });

  it('a failed Refresh keeps the old page only under a banner saying when it was read', async () => {
    const { fake, user } = await start();
    const readAt = new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(Date.now());
    act(() => vi.advanceTimersByTime(12 * 60_000));
    fake.failNext('users.list', { code: 'SERVER_ERROR', status: 503, outcome: 'refused', message: 'The service answered 503.' });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`Refreshing failed: this page was read at ${readAt} (12 min ago) and may be out of date.`);
    expect(screen.getByRole('table', { name: 'Users on page 1' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('read 12 min ago');
  });

  it('after an act of this console whose page could not be read again, the row says this console erased it', async () => {
    const { fake, user } = await start();
    await user.click(screen.getByRole('button', { name: 'Delete Carol' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText('Type the uid to confirm'), 'Carol');
    fake.failNext('users.list', { code: 'NETWORK', outcome: 'not-sent', message: 'Privacy Desk could not connect.' });
    await confirmThroughCountdown(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(rowOf('Carol').textContent).toContain('Deleted from this console'));
    expect(within(rowOf('Carol')).queryByRole('button', { name: 'Delete Carol' })).toBeNull();
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});

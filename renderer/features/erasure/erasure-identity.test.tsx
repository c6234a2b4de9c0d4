import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

type Rendered = ReturnType<typeof renderApp>;

/** The job id the fake gave the latest users.index call (job-<number of calls so far>). */
function lastIndexJob(fake: Rendered['fake']): string {
  let at = -1;
  fake.calls.forEach((call, index) => {
    if (call.method === 'users.index') at = index;
  });
  if (at < 0) throw new Error('no users.index call');
  return `job-${at + 1}`;
}

function finishRead(fake: Rendered['fake']) {
  act(() => fake.emitEvent('job.finished', { jobId: lastIndexJob(fake), kind: 'users.index', status: 'completed', result: { users: fake.users.length, pages: 3, indexedAt: '2026-11-22T12:04:00.000Z' } }));
}

/** As "Find a person" does first: the core reads every page and keeps the list, here made 4 minutes old. */
async function keepAList(rendered: Rendered) {
  const box = screen.getByRole('search');
  fireEvent.change(within(box).getByLabelText('Find a person — every page'), { target: { value: 'user' } });
  fireEvent.click(within(box).getByRole('button', { name: 'Find' }));
  await waitFor(() => expect(rendered.fake.callsOf('users.index')).toHaveLength(1));
  finishRead(rendered.fake);
  await screen.findByRole('list', { name: 'People matching “user”' });
  rendered.fake.ageList(4 * 60_000);
}

async function start() {
  const user = userEvent.setup();
  const rendered = renderApp();
  await screen.findByRole('table', { name: 'Users on page 1' });
  return { ...rendered, user };
}

async function actOnUid(action: 'Anonymise' | 'Delete', uid: string, rendered?: Awaited<ReturnType<typeof start>>) {
  const started = rendered ?? (await start());
  const box = screen.getByRole('region', { name: 'Act on a uid' });
  fireEvent.change(within(box).getByLabelText('uid'), { target: { value: uid } });
  await started.user.click(within(box).getByRole('button', { name: action }));
  const dialog = await screen.findByRole('dialog');
  return { ...started, dialog };
}

describe('erasure dialog: who the uid belongs to', () => {
  it('shows the name, e-mail, created date and contribution counts of a uid on the loaded page, and when that page was read', async () => {
    const { user } = await start();
    await user.click(screen.getByRole('button', { name: 'Delete dave smith' }));
    const dialog = await screen.findByRole('dialog');
    const identity = await within(dialog).findByRole('region', { name: /^Who this uid belongs to/ });
    // makeUser(index 5): "User 6", user6@example.com, created 2025-01-06, 15 messages, 35 votes.
    expect(identity.textContent).toContain('User 6');
    expect(identity.textContent).toContain('user6@example.com');
    expect(identity.textContent).toMatch(/2025/);
    expect(identity.textContent).toContain('15 messages · 35 votes');
    expect(identity.textContent).toContain('List read just now.');
    expect(within(dialog).getByLabelText('Type the uid to confirm')).toBeTruthy();
  });

  it('the same from "Act on a uid" when the typed uid is on the loaded page', async () => {
    const { dialog } = await actOnUid('Anonymise', 'alice@example.com');
    expect((await within(dialog).findByRole('region', { name: /^Who this uid belongs to/ })).textContent).toContain('user1@example.com');
  });

  it('says how old the list of every user is, and keeps saying it as time passes', async () => {
    // The window's clock moves only when the test moves it (timers still run in real time meanwhile).
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const rendered = await start();
    await keepAList(rendered);
    // Beyond the loaded page: the core's list answers, read (the fake says) 4 minutes ago.
    const { dialog } = await actOnUid('Delete', 'user-25', rendered);
    const identity = await within(dialog).findByRole('region', { name: /^Who this uid belongs to/ });
    expect(identity.textContent).toContain('User 25');
    expect(identity.textContent).toContain('List read 4 min ago.');
    act(() => vi.advanceTimersByTime(60_000));
    expect(identity.textContent).toContain('List read 5 min ago.');
  });

  it('a user created after the list was read: the list is read again then and there, and the user is found', async () => {
    const rendered = await start();
    await keepAList(rendered);
    rendered.fake.addUser(makeUser('new arrival', 40));
    const { dialog, fake } = await actOnUid('Delete', 'new arrival', rendered);
    // Not on the list read earlier proves nothing: it is read again, with progress and a Cancel.
    const reading = await within(dialog).findByText('Reading the service’s list of users now, to check this uid.', { exact: false });
    expect(within(reading.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(dialog.textContent).not.toContain('Not seen on the service’s list');
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(2));
    finishRead(fake);
    const identity = await within(dialog).findByRole('region', { name: /^Who this uid belongs to/ });
    expect(identity.textContent).toContain('User 41');
    expect(identity.textContent).toContain('List read just now.');
    expect(within(dialog).getByLabelText('Type the uid to confirm')).toBeTruthy();
  });

  it('a user the CLI erased after the page was read is not offered: the list is read again and the dialog says what the audit trail records', async () => {
    const rendered = await start();
    // Still on the loaded page, but deleted from the command line since.
    rendered.fake.eraseElsewhere('dave smith', 'delete');
    await rendered.user.click(screen.getByRole('button', { name: 'Delete dave smith' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(rendered.fake.callsOf('users.index')).toHaveLength(1));
    finishRead(rendered.fake);
    expect(await within(dialog).findByText(/Not seen on the service’s list — check the uid\./)).toBeTruthy();
    expect(dialog.textContent).toContain('read just now, has no user with exactly this uid: the service will answer “not found”.');
    expect(dialog.textContent).toMatch(/The audit trail on this computer records a deletion of this uid on .+, from the command line\./);
    expect(within(dialog).queryByRole('region', { name: /^Who this uid belongs to/ })).toBeNull();
    expect(within(dialog).queryByLabelText('Type the uid to confirm')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Continue anyway' })).toBeNull();
  });

  it('says a uid not on the list read just now is not there, before any ceremony, and sends nothing on Close', async () => {
    const { user, dialog, fake } = await actOnUid('Delete', 'jean dupont');
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(1));
    finishRead(fake);
    expect(await within(dialog).findByText(/Not seen on the service’s list — check the uid\./)).toBeTruthy();
    expect(dialog.textContent).toContain(`The list of all ${fake.users.length} users of this profile, read just now, has no user with exactly this uid`);
    expect(within(dialog).queryByLabelText('Type the uid to confirm')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(within(dialog).queryByRole('timer')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('users.erase')).toEqual([]);
  });

  it.each([
    [' user-12 ', 'user-12', 'A user whose uid differs only by spaces at either end is on the list:'],
    ['USER-12', 'user-12', 'A user whose uid differs only in upper and lower case is on the list:'],
  ])('“%s” is not on the list, but %s is: says so, and opens that user’s own dialog only when asked, with a new confirmation', async (asked, meant, words) => {
    const { user, dialog, fake } = await actOnUid('Delete', asked);
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(1));
    finishRead(fake);
    expect(await within(dialog).findByText(/Not seen on the service’s list — check the uid\./)).toBeTruthy();
    const near = within(dialog).getByRole('group', { name: words });
    expect(near.textContent).toContain(meant);
    expect(near.textContent).toContain('User 12');
    expect(within(dialog).queryByLabelText('Type the uid to confirm')).toBeNull();
    await user.click(within(near).getByRole('button', { name: `Delete ${meant} instead` }));
    const other = await screen.findByRole('dialog', { name: `Delete user ${meant}` });
    const typed = (await within(other).findByLabelText('Type the uid to confirm')) as HTMLInputElement;
    expect(typed.value).toBe('');
    expect((within(other).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);
    expect((await within(other).findByRole('region', { name: /^Who this uid belongs to/ })).textContent).toContain('User 12');
    expect(fake.callsOf('users.erase')).toEqual([]);
  });

  it('when the service cannot be reached, says so with the error’s words and a retry — never “no user”', async () => {
    const { user, dialog, fake } = await actOnUid('Delete', 'jean dupont');
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(1));
    act(() =>
      fake.emitEvent('job.finished', {
        jobId: lastIndexJob(fake),
        kind: 'users.index',
        status: 'failed',
        error: { code: 'NETWORK', outcome: 'not-sent', message: 'Privacy Desk could not connect to http://127.0.0.1:4600 (connection refused). Check that the service is running.' },
      }),
    );
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The service could not be reached: this uid was not checked');
    // The error itself, as the error panel words it, with its code.
    expect(alert.textContent).toContain('NETWORK');
    expect(dialog.textContent).not.toMatch(/No user with exactly this uid|has no user with exactly this uid|Not seen on the service’s list/);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(2));
    finishRead(fake);
    expect(await within(dialog).findByText(/Not seen on the service’s list — check the uid\./)).toBeTruthy();
  });

  it('after a stopped read, “Continue anyway” leads to the confirmation; a NOT_FOUND then offers Close instead of Confirm', async () => {
    const { user, dialog, fake } = await actOnUid('Delete', 'jean dupont');
    await user.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fake.callsOf('jobs.cancel')).toHaveLength(1));
    expect(await within(dialog).findByText(/Not checked:/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Continue anyway' }));
    expect(dialog.textContent).toContain('Not checked against the service’s list: make sure of the uid.');
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

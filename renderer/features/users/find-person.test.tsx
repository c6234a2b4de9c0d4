import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

async function findBox() {
  const app = renderApp();
  await screen.findByRole('table', { name: 'Users on page 1' });
  const box = screen.getByRole('search');
  const find = async (text: string) => {
    fireEvent.change(within(box).getByLabelText('Find a person — every page'), { target: { value: text } });
    fireEvent.click(within(box).getByRole('button', { name: 'Find' }));
    await waitFor(() => expect(app.fake.callsOf('users.index')).toHaveLength(1));
    return `job-${app.fake.calls.findIndex((call) => call.method === 'users.index') + 1}`;
  };
  return { ...app, find };
}

describe('find a person on any page', () => {
  it('reads every page once (with progress), then shows the matches with the matched part marked', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('ZOE');
    act(() => fake.emitEvent('job.progress', { jobId, kind: 'users.index', page: 2, totalPages: 3, collected: 200 }));
    expect(await screen.findByText('Reading every page: 2 of 3 pages, 200 users so far…')).toBeTruthy();
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    const results = await screen.findByRole('list', { name: 'People matching “ZOE”' }, { timeout: 5000 });
    const marks = [...results.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['zoë']);
    expect(screen.getByText('Matches for “ZOE”: 1 among 30 users.', { exact: false })).toBeTruthy();
  });

  it('opens the same detail panel and actions as the table', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('user 23');
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open User 23' }, { timeout: 5000 }));
    const panel = await screen.findByRole('complementary');
    expect(within(panel).getAllByText('User 23').length).toBeGreaterThan(0);
    expect(within(panel).getByRole('button', { name: /Anonymise/ })).toBeTruthy();
    // The panel carries the actions: the table gives up its actions column (it covered the Votes column at 1360).
    const table = screen.getByRole('table', { name: 'Users on page 1' });
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });

  it('stops reading on Cancel and says nothing can be searched yet', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('emile');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fake.callsOf('jobs.cancel')).toEqual([{ jobId }]));
    expect(await screen.findByText(/Reading every page was stopped/)).toBeTruthy();
  });

  it('says nobody matches only after reading every page again: someone created since the list was read is found', async () => {
    const { fake, find } = await findBox();
    const first = await find('user 2');
    act(() => fake.emitEvent('job.finished', { jobId: first, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    expect(await screen.findByRole('list', { name: 'People matching “user 2”' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('List read just now.', { exact: false })).toBeTruthy();
    fake.ageList(6 * 60_000);
    fake.addUser({ ...makeUser('zed-newcomer', 40), fullName: 'Zed Newcomer' });
    const box = screen.getByRole('search');
    fireEvent.change(within(box).getByLabelText('Find a person — every page'), { target: { value: 'newcomer' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Find' }));
    // Nobody on the list read 6 minutes ago: that is not said; every page is read again, with progress.
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(2));
    expect(await screen.findByText('Reading every page of users…')).toBeTruthy();
    expect(screen.queryByText(/Nobody matches/)).toBeNull();
    const second = `job-${fake.calls.map((call) => call.method).lastIndexOf('users.index') + 1}`;
    act(() => fake.emitEvent('job.finished', { jobId: second, kind: 'users.index', status: 'completed', result: { users: 31, pages: 4, indexedAt: '2026-11-22T12:06:00.000Z' } }));
    expect(await screen.findByRole('button', { name: 'Open Zed Newcomer' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('List read just now.', { exact: false })).toBeTruthy();
  });

  it('after a fresh read, says nobody matches, with the list’s age', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('nobody-at-all');
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    expect(await screen.findByText('Nobody matches “nobody-at-all” among 30 users.', { exact: false }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('List read just now.', { exact: false })).toBeTruthy();
    expect(fake.callsOf('users.index')).toHaveLength(1);
  });

  it('after an erasure from the detail panel, the panel says what happened and offers no act on that person', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('user 23');
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open User 23' }, { timeout: 5000 }));
    const panel = await screen.findByRole('complementary');
    fireEvent.click(within(panel).getByRole('button', { name: 'Anonymise user-23' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Type the uid to confirm'), { target: { value: 'user-23' } });
    vi.useFakeTimers();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    for (let i = 0; i < 10; i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(600);
      });
    }
    vi.useRealTimers();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('users.erase')).toHaveLength(1);
    const after = await screen.findByRole('complementary');
    expect(after.textContent).toContain('Anonymised just now');
    expect(within(after).queryByRole('button', { name: /Anonymise|Delete/ })).toBeNull();
    // Nowhere else on the screen is that person offered either: not in the results, not in the table.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open User 23' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Anonymise user-23' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete user-23' })).toBeNull();
    fireEvent.click(within(after).getByRole('button', { name: 'Close details' }));
    await waitFor(() => expect(screen.queryByRole('complementary')).toBeNull());
  });
});

describe('what find a person shows is still true after the command line erases a match', () => {
  it('Find again asks the core, which no longer offers the person', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('user 23');
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    expect(await screen.findByRole('button', { name: 'Open User 23' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Matches for “user 23”: 1 among 30 users.', { exact: false })).toBeTruthy();
    fake.eraseElsewhere('user-23');
    // The same question again: asked of the core (which takes out the erasure), not answered from memory.
    fireEvent.click(within(screen.getByRole('search')).getByRole('button', { name: 'Find' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open User 23' })).toBeNull());
    expect(fake.callsOf('users.search').length).toBeGreaterThanOrEqual(2);
  });

  it('an open panel of a person found on another page says they were erased from the command line, and offers no act', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { fake, find } = await findBox();
    const jobId = await find('user 23');
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 30, pages: 3, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open User 23' }, { timeout: 5000 }));
    const panel = await screen.findByRole('complementary', { name: 'User details' });
    expect(within(panel).getByRole('button', { name: /Delete/ })).toBeTruthy();
    act(() => vi.advanceTimersByTime(2000));
    fake.eraseElsewhere('user-23');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    await waitFor(() => expect(screen.getByRole('complementary', { name: 'User details' }).textContent).toContain('Deleted from the command line'));
    expect(within(screen.getByRole('complementary', { name: 'User details' })).queryByRole('button', { name: /^(Anonymise|Delete)/ })).toBeNull();
    // The matches are asked again too: the person is no longer offered.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open User 23' })).toBeNull());
  });
});

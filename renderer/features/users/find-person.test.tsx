import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';

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
  });

  it('stops reading on Cancel and says nothing can be searched yet', async () => {
    const { fake, find } = await findBox();
    const jobId = await find('emile');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fake.callsOf('jobs.cancel')).toEqual([{ jobId }]));
    expect(await screen.findByText(/Reading every page was stopped/)).toBeTruthy();
  });
});

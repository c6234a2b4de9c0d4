import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { msg } from '../../../shared/messages';

describe('users table', () => {
  it('pages through the service with the chosen page and page size', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ userCount: 30 });
    const table = await screen.findByRole('table', { name: 'Users on page 1' });
    expect(within(table).getAllByRole('row')).toHaveLength(11); // header + 10
    expect(screen.getByText('Page 1 of 3 · 30 users')).toBeTruthy();
    expect(fake.callsOf('users.list')[0]).toEqual({ profileId: 'sandbox', page: 1, perPage: 10 });
    // The next page is prefetched so "Next page" is instant.
    await waitFor(() => expect(fake.callsOf('users.list')).toContainEqual({ profileId: 'sandbox', page: 2, perPage: 10 }));

    await user.click(screen.getByRole('button', { name: /Last page/ }));
    await screen.findByRole('table', { name: 'Users on page 3' });
    expect(fake.callsOf('users.list')).toContainEqual({ profileId: 'sandbox', page: 3, perPage: 10 });
    expect(screen.getByRole('button', { name: /Next page/ }).hasAttribute('disabled')).toBe(true);

    await user.selectOptions(screen.getByLabelText('Users per page'), '25');
    await screen.findByText('Page 1 of 2 · 30 users');
    expect(fake.callsOf('users.list')).toContainEqual({ profileId: 'sandbox', page: 1, perPage: 25 });
  });

  it('hides "Last page" when the service gives no totals, and stops at a short page', async () => {
    const user = userEvent.setup();
    renderApp({ userCount: 12, withTotals: false });
    await screen.findByRole('table', { name: 'Users on page 1' });
    expect(screen.queryByRole('button', { name: /Last page/ })).toBeNull();
    expect(screen.getByText('Page 1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Next page/ }));
    await screen.findByRole('table', { name: 'Users on page 2' });
    expect(screen.getByRole('button', { name: /Next page/ }).hasAttribute('disabled')).toBe(true);
  });

  it('shows every field of a clicked user as a readable list, nested fields flattened', async () => {
    const user = userEvent.setup();
    renderApp();
    await screen.findByRole('table', { name: 'Users on page 1' });
    await user.click(screen.getByRole('button', { name: 'Show details of alice@example.com' }));
    const panel = screen.getByRole('complementary', { name: 'User details' });
    expect(within(panel).getByText('level › name')).toBeTruthy();
    expect(within(panel).getByText('Citizen')).toBeTruthy();
    expect(panel.textContent).not.toMatch(/[{}]/);
  });

  it('shows the error code and message, and Retry loads the page', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp();
    fake.failNext('users.list', { code: 'RATE_LIMITED', status: 429, text: msg('http.rateLimited', { purpose: msg('purpose.listUsers', { page: 1 }), wait: msg('wait.seconds', { seconds: 60 }) }) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/RATE_LIMITED/);
    expect(alert.textContent).toMatch(/Wait 60 s and try again/);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Users on page 1' })).toBeTruthy();
  });

  it('filters the loaded page', async () => {
    const user = userEvent.setup();
    renderApp();
    const table = await screen.findByRole('table', { name: 'Users on page 1' });
    await user.type(screen.getByLabelText('Filter this page'), 'carol');
    expect(within(table).getAllByRole('row')).toHaveLength(3); // header + Carol + carol
  });

  it('"Act on a uid" accepts a uid made only of spaces, as the shared rule does; only the empty string is empty', async () => {
    const user = userEvent.setup();
    renderApp();
    await screen.findByRole('table', { name: 'Users on page 1' });
    const box = screen.getByRole('region', { name: 'Act on a uid' });
    const anonymize = within(box).getByRole('button', { name: 'Anonymise' });
    expect(anonymize.hasAttribute('disabled')).toBe(true);
    await user.type(within(box).getByLabelText('uid'), '   ');
    expect(anonymize.hasAttribute('disabled')).toBe(false);
    expect(box.textContent).toMatch(/␣␣␣/);
    await user.click(anonymize);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/␣␣␣/);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeRequest } from '../../test/fake-requests';
import { renderApp } from '../../test/render-app';

const REGISTER = [
  makeRequest('REQ-2026-0004', 40),
  makeRequest('REQ-2026-0001', -3, { notes: 'Mme Martin wrote on 3 March' }),
  makeRequest('REQ-2026-0003', 5, { subjects: [{ uid: 'bob@example.org', profileId: 'sandbox' }, { uid: 'team/lead', profileId: 'sandbox' }] }),
  makeRequest('REQ-2026-0002', 0),
  makeRequest('REQ-2026-0005', -10, { status: 'answered' }),
];

async function openRequestsTab(options: Parameters<typeof renderApp>[0] = {}) {
  const user = userEvent.setup();
  const rendered = renderApp({ requests: REGISTER, ...options });
  await user.click(await screen.findByRole('tab', { name: /Requests/ }));
  return { user, ...rendered };
}

const rowIds = () => screen.getAllByTestId('request-row').map((row) => within(row).getAllByRole('button')[0]!.textContent);

describe('the Requests view', () => {
  it('lists the open requests soonest deadline first, each with its days left', async () => {
    await openRequestsTab();
    await waitFor(() => expect(rowIds()).toEqual(['REQ-2026-0001', 'REQ-2026-0002', 'REQ-2026-0003', 'REQ-2026-0004']));
    const rows = screen.getAllByTestId('request-row');
    expect(rows[0]?.textContent).toContain('Overdue by 3 days');
    expect(rows[1]?.textContent).toContain('Due today');
    expect(rows[2]?.textContent).toContain('5 days left');
    expect(rows[2]?.textContent).toContain('+ 1 more uid');
    expect(rows[3]?.textContent).toContain('40 days left');
  });

  it('marks overdue and due-soon rows in words and a mark, not colour alone', async () => {
    await openRequestsTab();
    const rows = await screen.findAllByTestId('request-row');
    expect(rows[0]?.classList.contains('requests-table__row--overdue')).toBe(true);
    expect(within(rows[0]!).getByText('⚠', { exact: false })).toBeTruthy();
    expect(rows[2]?.classList.contains('requests-table__row--due-soon')).toBe(true);
    expect(within(rows[2]!).getByText('◷', { exact: false })).toBeTruthy();
    expect(rows[3]?.classList.contains('requests-table__row--due-soon')).toBe(false);
  });

  it('counts overdue and due-this-week requests on the tab, said in words', async () => {
    await openRequestsTab();
    const badge = await screen.findByTestId('requests-badge');
    expect(badge?.textContent).toContain('⚠ 3');
    expect(badge?.classList.contains('tab-badge--overdue')).toBe(true);
    expect(screen.getByRole('tab', { name: /Requests.*Overdue: 1 · due within 7 days: 2/ })).toBeTruthy();
  });

  it('has no badge when nothing is due', async () => {
    renderApp({ requests: [makeRequest('REQ-2026-0009', 30)] });
    await screen.findByRole('tab', { name: /Requests/ });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('requests-badge')).toBeNull();
  });

  it('filters by status, profile and text through the register', async () => {
    const { user, fake } = await openRequestsTab();
    await screen.findAllByTestId('request-row');
    await user.selectOptions(screen.getByLabelText('Status'), 'closed');
    await waitFor(() => expect(rowIds()).toEqual(['REQ-2026-0005']));
    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await user.type(screen.getByLabelText('Find'), 'martin');
    await waitFor(() => expect(rowIds()).toEqual(['REQ-2026-0001']));
    await user.clear(screen.getByLabelText('Find'));
    await user.selectOptions(screen.getByLabelText('Profile'), 'sandbox');
    expect(fake.callsOf('requests.list').at(-1)).toEqual({ filter: { profileId: 'sandbox' } });
  });

  it('says when no request matches', async () => {
    const { user } = await openRequestsTab();
    await screen.findAllByTestId('request-row');
    await user.type(screen.getByLabelText('Find'), 'nobody-at-all');
    expect(await screen.findByText('No request matches these filters. Change or clear them.')).toBeTruthy();
  });

  it('says what failed and offers to try again when the register cannot be read', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ requests: REGISTER });
    fake.failNext('requests.list', { code: 'INTERNAL', message: 'The register is locked.' });
    await user.click(await screen.findByRole('tab', { name: /Requests/ }));
    expect(await screen.findByText('The requests could not be read')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Retry|Try again/ }));
    await waitFor(() => expect(screen.getAllByTestId('request-row')).toHaveLength(4));
  });
});

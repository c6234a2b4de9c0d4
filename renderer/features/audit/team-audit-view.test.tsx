import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../shared/audit';
import { giveAuditGridAHeight } from '../../test/audit-grid-layout';
import { renderApp } from '../../test/render-app';
import { useAuditFilter } from './audit-filter-store';
import { AUDIT_ROW_HEIGHT } from './audit-table';
import { TEAM_AUDIT_PAGE } from './team-audit-view';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'cli', operator: 'agent-1' } as const;
// 300 acts of two entries from the team's desktops: more than one page; every tenth under REQ-10.
const TRAIL: AuditEntry[] = Array.from({ length: 300 }, (_, act) => {
  const at = `2026-11-${act < 150 ? 20 : 21}T10:00:00.000+01:00`;
  const common = { ...base, at, actId: `act-${act}`, action: 'delete' as const, uid: `user-${act}`, ...(act % 10 === 0 ? { reference: 'REQ-10' } : {}) };
  return [{ ...common, outcome: 'attempted' as const }, { ...common, outcome: 'done' as const, status: 200 }];
}).flat();

let restoreLayout: () => void = () => undefined;
beforeEach(() => {
  useAuditFilter.getState().clear();
  restoreLayout = giveAuditGridAHeight();
});
afterEach(() => restoreLayout());

async function openTeamAudit(more: Parameters<typeof renderApp>[0] = {}) {
  const user = userEvent.setup();
  const rendered = renderApp({ auditEntries: TRAIL, auditStore: 'team', ...more });
  await user.click(await screen.findByRole('tab', { name: 'Audit trail' }));
  await screen.findByRole('table', { name: 'Audit trail entries' });
  return { ...rendered, user };
}

describe('the audit view on a team trail (team mode)', () => {
  it('reads it a page at a time from the newest, never whole, and says how many entries the trail holds', async () => {
    const { fake } = await openTeamAudit();
    expect(fake.callsOf('audit.readPage')).toEqual([]);
    expect(fake.callsOf('audit.read')).toEqual([]);
    expect(fake.callsOf('audit.queryPage')[0]).toEqual({ filter: {}, limit: TEAM_AUDIT_PAGE });
    expect(screen.getByTestId('audit-where').textContent).toBe('Team trail in postgres://dpo@db.example.org:5432/desk');
    expect(screen.getByText(/600 entries in the team trail · 100 acts shown/)).toBeTruthy();
  });

  it('says the chain is not verified yet, and verifies it when asked', async () => {
    const { user, fake } = await openTeamAudit();
    const badge = screen.getByTestId('integrity');
    expect(badge.dataset.verified).toBe('no');
    expect(badge.textContent).toMatch(/Not verified yet in this view.*600 entries.*press Verify/);
    expect(fake.callsOf('audit.verify')).toEqual([]);
    await user.click(within(badge).getByRole('button', { name: 'Verify the chain' }));
    await waitFor(() => expect(screen.getByTestId('integrity').textContent).toMatch(/Verified · 600 entries/));
  });

  it('shows a break that verify found, with where it is', async () => {
    const { user } = await openTeamAudit({ auditVerdict: { ok: false, entries: 600, kind: 'edited', line: 17, message: 'Entry 17 was edited.', headHash: null } });
    await user.click(within(screen.getByTestId('integrity')).getByRole('button', { name: 'Verify the chain' }));
    await waitFor(() => expect(screen.getByTestId('integrity').textContent).toMatch(/Chain broken at line 17/));
  });

  it('asks for older entries page after page, with the cursor the last page gave, until all are shown', async () => {
    const { user, fake } = await openTeamAudit();
    await user.click(screen.getByRole('button', { name: 'Read older entries' }));
    await waitFor(() => expect(fake.callsOf('audit.queryPage')).toHaveLength(2));
    // 600 entries newest first, 200 a page: the second page starts below line 401.
    expect(fake.callsOf('audit.queryPage')[1]).toEqual({ filter: {}, cursor: 401, limit: TEAM_AUDIT_PAGE });
    await waitFor(() => expect(screen.getByText(/200 acts shown/)).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Read older entries' }));
    await waitFor(() => expect(screen.getByText('Every matching entry is shown.')).toBeTruthy());
    expect(screen.getByText(/300 acts shown/)).toBeTruthy();
  });

  it('asks for the next page by itself when the rows read so far have been scrolled through', async () => {
    const { fake } = await openTeamAudit();
    expect(fake.callsOf('audit.queryPage')).toHaveLength(1);
    // The table is its own scroll box: to the last of the 100 rows read.
    const table = screen.getByRole('table', { name: 'Audit trail entries' });
    act(() => {
      Object.defineProperty(table, 'scrollTop', { configurable: true, value: 95 * AUDIT_ROW_HEIGHT });
      fireEvent.scroll(table);
    });
    await waitFor(() => expect(fake.callsOf('audit.queryPage')).toHaveLength(2));
    expect(fake.callsOf('audit.queryPage')[1]).toMatchObject({ cursor: 401 });
    await waitFor(() => expect(screen.getByText(/200 acts shown/)).toBeTruthy());
  });

  it('sends the filters with the page, and shows the count the store gives', async () => {
    const { user, fake } = await openTeamAudit();
    await user.type(screen.getByLabelText('Reference'), 'req-10');
    await waitFor(() => expect(screen.getByText(/60 entries match these filters · 30 acts shown/)).toBeTruthy());
    expect(fake.callsOf('audit.queryPage').at(-1)).toEqual({ filter: { reference: 'req-10' }, limit: TEAM_AUDIT_PAGE });
    expect(screen.getByText('Every matching entry is shown.')).toBeTruthy();
  });

  it('says "more than" where the store stopped counting, never a made-up total', async () => {
    const { user } = await openTeamAudit({ auditCountCap: 50 });
    await user.selectOptions(screen.getByLabelText('Outcome'), 'done');
    await waitFor(() => expect(screen.getByText(/More than 50 entries match these filters \(not counted further\)/)).toBeTruthy());
  });

  it('says an older page could not be read, keeps the rows already read, and reads it again on request', async () => {
    const { user, fake } = await openTeamAudit();
    fake.failNext('audit.queryPage', { code: 'TEAM_STORE_UNAVAILABLE', message: 'The team database could not be read.' });
    await user.click(screen.getByRole('button', { name: 'Read older entries' }));
    const panel = await screen.findByText('These entries could not be read from the team database');
    expect(screen.getByText(/100 acts shown/)).toBeTruthy();
    await user.click(within(panel.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByText(/200 acts shown/)).toBeTruthy());
  });
});

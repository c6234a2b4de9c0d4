import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../shared/audit';
import { renderApp } from '../../test/render-app';
import { groupAuditActs } from './group-acts';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'app' } as const;
const entry = (at: string, uid: string, outcome: AuditEntry['outcome'], more: Partial<AuditEntry> = {}): AuditEntry => ({
  ...base,
  at: `2026-11-21T10:${at}.000Z`,
  action: 'delete',
  uid,
  outcome,
  ...more,
});

// Oldest first, as the gate appends them: a completed act, an act whose outcome never came, and an old unpaired entry.
const ENTRIES: AuditEntry[] = [
  entry('00:00', 'old-user', 'done', { status: 200 }),
  entry('01:00', 'alice', 'attempted', { actId: 'a1', reference: 'TICKET-7' }),
  entry('01:01', 'alice', 'done', { actId: 'a1', status: 200, requestId: 'req-alice' }),
  entry('02:00', 'bob', 'attempted', { actId: 'b2' }),
];

async function openAudit(entries: AuditEntry[]) {
  const user = userEvent.setup();
  renderApp({ auditEntries: entries });
  await user.click(await screen.findByRole('tab', { name: 'Audit trail' }));
  const table = await screen.findByRole('table', { name: 'Audit trail entries' });
  return within(table).getAllByRole('row').slice(1);
}

describe('audit trail', () => {
  it('shows one row per act with its final outcome, newest act first', async () => {
    const rows = await openAudit(ENTRIES);
    expect(rows).toHaveLength(3);
    const [bob, alice, old] = rows.map((row) => row.textContent ?? '');
    expect(bob).toMatch(/bob.*Outcome unknown — check the user/);
    expect(alice).toMatch(/alice.*TICKET-7.*Done.*200.*req-alice/);
    expect(alice).not.toMatch(/Attempted/);
    expect(old).toMatch(/old-user.*Done/);
  });

  it('marks an attempt without an outcome as a warning with a sign, not colour alone', async () => {
    const [bob] = await openAudit(ENTRIES);
    expect(bob!.className).toMatch(/is-unknown/);
    expect(within(bob!).getByText('Outcome unknown — check the user').parentElement!.textContent).toMatch(/^⚠/);
  });

  it('shows "—" for an empty reference, status and request id', async () => {
    const [bob] = await openAudit(ENTRIES);
    const cells = within(bob!).getAllByRole('cell').map((cell) => cell.textContent);
    // time, action, uid, reference, outcome, status, request id, profile, via
    expect([cells[3], cells[5], cells[6]]).toEqual(['—', '—', '—']);
  });

  it('keeps entries without an actId as they are and pairs a failure with its attempt', () => {
    const acts = groupAuditActs([
      entry('00:00', 'legacy', 'attempted'),
      entry('00:01', 'legacy', 'unknown', { errorCode: 'TIMEOUT' }),
      entry('03:00', 'carol', 'attempted', { actId: 'c3', reference: 'R-1' }),
      entry('03:02', 'carol', 'refused', { actId: 'c3', errorCode: 'NOT_FOUND', status: 404 }),
    ]);
    expect(acts.map((act) => [act.entry.uid, act.outcome, act.entry.reference, act.entry.errorCode])).toEqual([
      ['carol', 'refused', 'R-1', 'NOT_FOUND'],
      ['legacy', 'unknown', undefined, 'TIMEOUT'],
      ['legacy', 'attempted', undefined, undefined],
    ]);
    // The row's time is when the act started.
    expect(acts[0]!.at).toBe('2026-11-21T10:03:00.000Z');
  });
});

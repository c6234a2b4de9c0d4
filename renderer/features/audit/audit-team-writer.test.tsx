import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../shared/audit';
import { giveAuditGridAHeight } from '../../test/audit-grid-layout';
import { renderApp } from '../../test/render-app';
import { useAuditFilter } from './audit-filter-store';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'app', action: 'delete', outcome: 'done', status: 200 } as const;
const TRAIL: AuditEntry[] = [
  // Written in team mode: the operator, the desktop it came from and the database role.
  { ...base, at: '2026-11-21T10:00:00.000+01:00', actId: 'team-act', uid: 'user-team', operator: 'agent-1', desktop: 'desk-2', dbRole: 'privacy_agent' },
  // Imported from a local trail: written before team mode, so neither.
  { ...base, at: '2026-11-20T10:00:00.000+01:00', actId: 'local-act', uid: 'user-local', operator: 'dpo' },
];

let restoreLayout: () => void = () => undefined;
beforeEach(() => {
  useAuditFilter.getState().clear();
  restoreLayout = giveAuditGridAHeight();
});
afterEach(() => restoreLayout());

describe('an audit entry says who wrote it in team mode', () => {
  it('names the desktop and the database role beside the operator, and only where the entry carries them', async () => {
    const user = userEvent.setup();
    renderApp({ auditEntries: TRAIL, auditStore: 'team' });
    await user.click(await screen.findByRole('tab', { name: 'Audit trail' }));
    const table = await screen.findByRole('table', { name: 'Audit trail entries' });
    const rowOf = async (uid: string) => (await within(table).findByText(uid)).closest('[role="row"]') as HTMLElement;
    const team = await rowOf('user-team');
    const writer = within(team).getByTestId('audit-team-writer');
    expect(writer.textContent).toBe('on desk-2database role privacy_agent');
    expect(writer.getAttribute('title')).toBe('Written by agent-1 on desk-2 with the database role privacy_agent');
    const local = await rowOf('user-local');
    expect(within(local).queryByTestId('audit-team-writer')).toBeNull();
    expect(local.textContent).toContain('dpo');
  });
});

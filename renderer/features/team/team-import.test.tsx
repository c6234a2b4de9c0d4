import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { msg } from '../../../shared/messages';
import type { TeamStatus } from '../../../shared/team-mode';
import { createQueryClient } from '../../app-root';
import { BridgeProvider } from '../../bridge/bridge-context';
import { createI18n } from '../../i18n';
import { createFakeBridge } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import { TeamSection } from './team-section';

const TEAM: TeamStatus = {
  mode: 'team',
  where: 'postgres://dpo@db.example.org:5432/desk',
  password: 'keychain',
  reachable: true,
  role: 'dpo',
  desktop: 'desk-2',
  counts: { auditEntries: 1204, requests: 17, jobs: 3 },
};

async function openImportDialog() {
  const user = userEvent.setup();
  const rendered = renderApp({ team: TEAM });
  await user.click(await screen.findByRole('tab', { name: /Profiles/ }));
  const section = await screen.findByTestId('team-mode');
  await user.click(await within(section).findByRole('button', { name: 'Move this computer’s trail, jobs and register into the team database' }));
  const dialog = await screen.findByRole('dialog');
  await within(dialog).findByTestId('team-import-preview');
  return { user, section, dialog, ...rendered };
}

describe('team import from the settings', () => {
  it('says what moves and what stays, asks for IMPORT, then says what was moved and what was left out, and why', async () => {
    const { user, section, dialog, fake } = await openImportDialog();
    const preview = within(dialog).getByTestId('team-import-preview');
    expect(preview.textContent).toContain('What moves into postgres://dpo@db.example.org:5432/desk');
    expect(preview.textContent).toContain('48 audit entries');
    expect(preview.textContent).toContain('3 batch jobs');
    expect(preview.textContent).toContain('2 requests (5 register events)');
    expect(preview.textContent).toContain('Profiles and their credentials');
    expect(preview.textContent).toContain('It happens once');
    expect(fake.callsOf('team.importPreview')).toHaveLength(1);

    const confirm = within(dialog).getByRole('button', { name: 'Move into the team database' });
    const field = within(dialog).getByLabelText('Type IMPORT to confirm');
    await user.type(field, 'import');
    expect(confirm).toHaveProperty('disabled', true);
    await user.clear(field);
    await user.type(field, 'IMPORT');
    expect(confirm).toHaveProperty('disabled', false);
    await user.click(confirm);

    const result = await within(dialog).findByTestId('team-import-result');
    expect(result.textContent).toContain('Moved into postgres://dpo@db.example.org:5432/desk');
    expect(result.textContent).toContain('48 audit entries, 2 batch jobs, 2 requests (5 register events).');
    expect(result.textContent).toContain('is recorded in team entry 1,205');
    expect(within(result).getByTestId('team-import-left-out').textContent).toContain('Batch job 20261124-101500-ab12: Batch job 20261124-101500-ab12 is already being run by another Privacy Desk process');
    expect(fake.callsOf('team.import')).toEqual([{ confirmation: 'IMPORT' }]);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Done once: the section says when, and offers no second import.
    expect((await within(section).findByTestId('team-imported-at')).textContent).toMatch(/were moved into the team database on/);
    expect(within(section).queryByRole('button', { name: /Move this computer’s trail/ })).toBeNull();
    expect(section.textContent).toContain('1,252 audit entries');
  });

  it('shows why the import did not finish, in words, and keeps the dialog open to try again', async () => {
    const { user, dialog, fake } = await openImportDialog();
    fake.failNext('team.import', { code: 'TEAM_STORE_UNAVAILABLE', text: msg('team.unreachable', { where: TEAM.where!, why: 'ECONNREFUSED' }) });
    await user.type(within(dialog).getByLabelText('Type IMPORT to confirm'), 'IMPORT');
    await user.click(within(dialog).getByRole('button', { name: 'Move into the team database' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The import did not finish');
    expect(alert.textContent).toContain('could not be reached (ECONNREFUSED)');
    expect(within(dialog).queryByTestId('team-import-result')).toBeNull();
    // Tried again once the database is back: it goes through.
    await user.click(within(dialog).getByRole('button', { name: 'Move into the team database' }));
    expect(await within(dialog).findByTestId('team-import-result')).toBeTruthy();
  });

  it('is said in French, with its typography, the reason a job was left out included', async () => {
    const user = userEvent.setup();
    const fake = createFakeBridge({ team: TEAM });
    const i18n = createI18n('fr');
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={createQueryClient()}>
          <BridgeProvider client={fake.bridge} events={fake.events}>
            <TeamSection />
          </BridgeProvider>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Déplacer le journal, les lots et le registre de cet ordinateur dans la base de l’équipe' }));
    const dialog = await screen.findByRole('dialog');
    const preview = await within(dialog).findByTestId('team-import-preview');
    expect(preview.textContent).toContain('48\u00a0entrées d’audit\u00a0: la chaîne locale');
    await user.type(within(dialog).getByLabelText('Tapez IMPORT pour confirmer'), 'IMPORT');
    await user.click(within(dialog).getByRole('button', { name: 'Déplacer dans la base de l’équipe' }));
    const leftOut = await within(dialog).findByTestId('team-import-left-out');
    expect(leftOut.textContent).toContain('Lot 20261124-101500-ab12\u00a0: ');
    expect(leftOut.textContent).not.toContain('already being run');
  });
});

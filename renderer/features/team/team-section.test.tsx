import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { FAKE_TEAM_PASSWORD } from '../../test/fake-team';

async function openTeamSection(options: Parameters<typeof renderApp>[0] = {}) {
  const user = userEvent.setup();
  const rendered = renderApp(options);
  await user.click(await screen.findByRole('tab', { name: /Profiles/ }));
  const section = await screen.findByTestId('team-mode');
  return { user, section, ...rendered };
}

describe('team mode in the settings', () => {
  it('connects: the password leaves the field at once, the header names the database, every view reads again', async () => {
    const { user, section, fake } = await openTeamSection();
    expect(screen.queryByTestId('team-badge')).toBeNull();
    await user.type(within(section).getByLabelText('Database address'), 'postgres://dpo@db.example.org:5432/desk');
    const password = within(section).getByLabelText('Password');
    await user.type(password, FAKE_TEAM_PASSWORD);
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    expect(await within(section).findByTestId('team-where')).toHaveProperty('textContent', 'postgres://dpo@db.example.org:5432/desk');
    expect(within(section).getByTestId('team-reachable').textContent).toBe('Reachable as role dpo from desk-1');
    expect(section.textContent).toContain('1,204 audit entries, 17 requests, 3 batch jobs');
    expect((await screen.findByTestId('team-badge')).textContent).toBe('Team: dpo@db.example.org:5432/desk');
    expect(fake.callsOf('team.connect')).toEqual([{ databaseUrl: 'postgres://dpo@db.example.org:5432/desk', password: FAKE_TEAM_PASSWORD }]);
    // Nothing the window shows holds the password.
    expect(document.body.innerHTML).not.toContain(FAKE_TEAM_PASSWORD);
  });

  it('says why a connection was refused, in the window’s words, and stays local', async () => {
    const { user, section } = await openTeamSection();
    await user.type(within(section).getByLabelText('Database address'), 'postgres://dpo@db.example.org/desk');
    await user.type(within(section).getByLabelText('Password'), 'wrong-one');
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain('Team mode could not be turned on');
    expect(alert.textContent).toContain('refused the connection (28P01)');
    expect((within(section).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('team-badge')).toBeNull();
    expect(document.body.innerHTML).not.toContain('wrong-one');
  });

  it('goes back to the local files on request', async () => {
    const { user, section, fake } = await openTeamSection({ team: { mode: 'team', where: 'postgres://dpo@db.example.org:5432/desk', reachable: false, password: 'keychain' } });
    await user.click(await within(section).findByRole('button', { name: 'Back to local files' }));
    await waitFor(() => expect(within(section).getByLabelText('Database address')).toBeTruthy());
    expect(fake.callsOf('team.disconnect')).toHaveLength(1);
  });
});

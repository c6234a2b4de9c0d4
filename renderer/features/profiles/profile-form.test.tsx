import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';

describe('profile form', () => {
  it('welcomes a first run and validates before anything is sent', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ profiles: [], activeId: null });
    expect(await screen.findByRole('heading', { name: 'Welcome to Privacy Desk' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a profile' });
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    expect(dialog.textContent).toMatch(/Give the profile a name\./);
    expect(dialog.textContent).toMatch(/Enter the service’s address\./);
    expect(dialog.textContent).toMatch(/Enter the application name\./);
    expect(dialog.textContent).toMatch(/Enter the API key\./);
    expect(dialog.textContent).toMatch(/Enter the secret key\./);
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Profile name'));

    await user.type(within(dialog).getByLabelText('Base URL'), 'http://debate.example.org');
    expect(dialog.textContent).toMatch(/Use https:\/\//);
    expect(fake.callsOf('profiles.save')).toEqual([]);
  });

  it('saves a valid profile with a normalised address and makes the first one active', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ profiles: [], activeId: null });
    await user.click(await screen.findByRole('button', { name: 'Add profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a profile' });
    const secret = within(dialog).getByLabelText('Secret key') as HTMLInputElement;
    expect(secret.type).toBe('password');
    await user.type(within(dialog).getByLabelText('Profile name'), 'City portal');
    await user.type(within(dialog).getByLabelText('Base URL'), 'https://debate.example.org/api/v1/');
    await user.type(within(dialog).getByLabelText('Application name'), 'city-portal');
    await user.type(within(dialog).getByLabelText('API key'), 'key-1234');
    await user.type(secret, 's3cret');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('profiles.save')).toEqual([
      { name: 'City portal', baseUrl: 'https://debate.example.org', applicationName: 'city-portal', apiKey: 'key-1234', apiSecret: 's3cret' },
    ]);
    expect(fake.callsOf('profiles.setActive')).toEqual([{ id: 'city-portal' }]);
    expect(await screen.findByText('LIVE DATA — debate.example.org')).toBeTruthy();
  });

  it('on edit never shows the secret and keeps the stored one when left empty', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ profiles: [LOCAL_PROFILE] });
    await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
    const card = await screen.findByRole('article', { name: 'Sandbox' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile “Sandbox”' });
    const secret = within(dialog).getByLabelText('Secret key') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(dialog.textContent).toMatch(/Leave empty to keep the stored secret key/);
    const name = within(dialog).getByLabelText('Profile name');
    await user.clear(name);
    await user.type(name, 'Local sandbox');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(fake.callsOf('profiles.save')).toHaveLength(1));
    const saved = fake.callsOf('profiles.save')[0]!;
    expect(saved).toMatchObject({ id: 'sandbox', name: 'Local sandbox' });
    expect(saved).not.toHaveProperty('apiSecret');
    expect(saved).not.toHaveProperty('apiKey');
  });

  it('deletes a profile only after its name is typed exactly', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ profiles: [LOCAL_PROFILE] });
    await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
    await user.click(within(await screen.findByRole('article', { name: 'Sandbox' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete profile' }) as HTMLButtonElement;
    await user.type(within(dialog).getByLabelText('Type the profile name to confirm'), 'sandbox');
    expect(confirm.disabled).toBe(true);
    await user.clear(within(dialog).getByLabelText('Type the profile name to confirm'));
    await user.type(within(dialog).getByLabelText('Type the profile name to confirm'), 'Sandbox');
    await user.click(confirm);
    await waitFor(() => expect(fake.callsOf('profiles.remove')).toEqual([{ id: 'sandbox', confirmName: 'Sandbox' }]));
    expect(await screen.findByRole('heading', { name: 'Welcome to Privacy Desk' })).toBeTruthy();
  });

  it('shows each connection-test step with its outcome', async () => {
    const user = userEvent.setup();
    renderApp({ profiles: [LOCAL_PROFILE] });
    await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
    await user.click(within(await screen.findByRole('article', { name: 'Sandbox' })).getByRole('button', { name: 'Test connection' }));
    const list = await screen.findByRole('list', { name: 'Connection test for Sandbox' });
    const steps = within(list).getAllByRole('listitem').map((li) => li.textContent);
    expect(steps[0]).toMatch(/✓.*authentication.*Passed/);
    expect(steps[2]).toMatch(/✗.*List users.*Failed.*INSUFFICIENT_SCOPE/);
  });
});

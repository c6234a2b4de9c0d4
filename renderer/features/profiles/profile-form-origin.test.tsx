import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIVE_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import { validateProfileForm } from './profile-form-validation';

// Stored credentials stay with the origin they were entered for.
async function editLiveProfile() {
  const user = userEvent.setup();
  const rendered = renderApp({ profiles: [LIVE_PROFILE], activeId: LIVE_PROFILE.id });
  await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
  const card = await screen.findByRole('article', { name: LIVE_PROFILE.name });
  await user.click(within(card).getByRole('button', { name: 'Edit' }));
  const dialog = await screen.findByRole('dialog', { name: `Edit profile “${LIVE_PROFILE.name}”` });
  const baseUrl = within(dialog).getByLabelText('Base URL');
  return { user, dialog, baseUrl, ...rendered };
}

describe('profile form: a new server needs the key and secret again', () => {
  it('moving to another origin makes both fields required, with a note, and sends nothing until they are entered', async () => {
    const { user, dialog, baseUrl, fake } = await editLiveProfile();
    expect(dialog.textContent).not.toMatch(/another server/);
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://collector.example.net');
    expect(dialog.textContent).toMatch(/They are only ever sent to that server: enter the API key and the secret key for the new address\./);
    expect(dialog.textContent).not.toMatch(/Leave empty to keep the stored/);
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    expect(dialog.textContent).toMatch(/Enter the API key again: the address moved to another server\./);
    expect(dialog.textContent).toMatch(/Enter the secret key again: the address moved to another server\./);
    expect(fake.callsOf('profiles.save')).toEqual([]);

    await user.type(within(dialog).getByLabelText('API key'), 'new-key');
    await user.type(within(dialog).getByLabelText('Secret key'), 'new-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(fake.callsOf('profiles.save')).toHaveLength(1));
    expect(fake.callsOf('profiles.save')[0]).toMatchObject({ id: LIVE_PROFILE.id, baseUrl: 'https://collector.example.net', apiKey: 'new-key', apiSecret: 'new-secret' });
  });

  it('a new path on the same server keeps the stored key and secret', async () => {
    const { user, dialog, baseUrl, fake } = await editLiveProfile();
    await user.clear(baseUrl);
    await user.type(baseUrl, `${LIVE_PROFILE.baseUrl}/debates`);
    expect(dialog.textContent).toMatch(/Leave empty to keep the stored secret key/);
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(fake.callsOf('profiles.save')).toHaveLength(1));
    expect(fake.callsOf('profiles.save')[0]).not.toHaveProperty('apiSecret');
  });

  it('the rule: scheme, host and port count; a path does not', () => {
    const values = { name: 'n', applicationName: 'a', apiKey: '', apiSecret: '' };
    const context = { editing: true, hasCredentials: true, storedBaseUrl: 'https://debate.example.org' };
    expect(validateProfileForm({ ...values, baseUrl: 'https://debate.example.org/x' }, context)).toEqual({});
    expect(validateProfileForm({ ...values, baseUrl: 'https://debate.example.org:8443' }, context)).toEqual({ apiKey: 'apiKeyNewAddress', apiSecret: 'apiSecretNewAddress' });
    expect(validateProfileForm({ ...values, baseUrl: 'https://debate.example.org.evil.net' }, context)).toEqual({ apiKey: 'apiKeyNewAddress', apiSecret: 'apiSecretNewAddress' });
  });
});

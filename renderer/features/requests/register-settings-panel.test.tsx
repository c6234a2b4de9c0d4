import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { msg } from '../../../shared/messages';
import { renderApp } from '../../test/render-app';

async function openSettings() {
  const user = userEvent.setup();
  const rendered = renderApp();
  await user.click(await screen.findByRole('tab', { name: /Requests/ }));
  await user.click(await screen.findByRole('button', { name: 'Register settings' }));
  await screen.findByDisplayValue('Europe/Paris');
  return { user, ...rendered };
}

describe('the register’s settings', () => {
  it('saves the time zone, the country, the pause rule and the purge years', async () => {
    const { user, fake } = await openSettings();
    const zone = screen.getByLabelText('Time zone of the DPO');
    await user.clear(zone);
    await user.type(zone, 'America/New_York');
    const country = screen.getByLabelText('Public holidays of');
    await user.clear(country);
    await user.type(country, 'us');
    await user.click(screen.getByLabelText('Waiting for the requester’s identity stops the clock'));
    await user.click(screen.getByRole('button', { name: 'Save the settings' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save the settings' })).toBeNull());
    expect(fake.callsOf('requests.saveSettings')).toEqual([{ timeZone: 'America/New_York', country: 'US', pauseStopsClock: false, purgeAfterYears: 3 }]);
  });

  it('shows the core’s reason when it refuses them, and keeps the form', async () => {
    const { user, fake } = await openSettings();
    fake.failNext('requests.saveSettings', { code: 'INVALID_INPUT', text: msg('requests.badTimeZone', { zone: 'Mars/Olympus' }) });
    await user.click(screen.getByRole('button', { name: 'Save the settings' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The settings were not saved');
    expect(alert.textContent).toContain('Mars/Olympus is not a time zone this computer knows');
    expect(screen.getByRole('button', { name: 'Save the settings' })).toBeTruthy();
  });
});

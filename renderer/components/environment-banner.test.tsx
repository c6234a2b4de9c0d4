import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../test/fake-bridge';
import { renderApp } from '../test/render-app';

describe('environment badge', () => {
  it('shows a LIVE DATA banner with the host for a profile that is not on this computer', async () => {
    renderApp({ profiles: [LIVE_PROFILE] });
    expect(await screen.findByText('LIVE DATA — debate.example.org')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toMatch(/real users/);
  });

  it('shows a calm Sandbox badge and no live banner for a local profile', async () => {
    renderApp({ profiles: [LOCAL_PROFILE] });
    await screen.findByRole('table', { name: 'Users on page 1' });
    expect(screen.getAllByText('Sandbox').length).toBeGreaterThan(0);
    expect(screen.queryByText(/LIVE DATA/)).toBeNull();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('warns, for the whole session, when the keychain is unavailable', async () => {
    renderApp({ keychain: { available: false, problem: 'No Secret Service provider was found.' } });
    const title = await screen.findByText('The system keychain is not available.');
    const notice = title.closest('[role="status"]');
    expect(notice?.textContent).toMatch(/this session only.*No Secret Service provider was found\./);
  });
});

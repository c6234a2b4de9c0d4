import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';

// A live service's token is shown without its signature and cannot be copied.
async function openPreview(profile: typeof LOCAL_PROFILE, user = userEvent.setup()) {
  renderApp({ profiles: [profile], activeId: profile.id });
  await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
  await user.type(screen.getByLabelText('User uid'), 'alice');
  const preview = await screen.findByRole('region', { name: 'Live preview' });
  await within(preview).findByText(/"sub": "alice"/);
  return preview;
}

describe('token preview', () => {
  it('for a live service shows the placeholder signature, says why, and offers no copy', async () => {
    const preview = await openPreview(LIVE_PROFILE);
    expect(preview.textContent).toContain('signature-withheld');
    expect(preview.textContent).toMatch(/a signed token stays inside Privacy Desk and cannot be copied/);
    expect(within(preview).queryByRole('button', { name: 'Copy token' })).toBeNull();
  });

  it('for the sandbox on this computer keeps the copy button', async () => {
    const preview = await openPreview(LOCAL_PROFILE);
    expect(within(preview).getByRole('button', { name: 'Copy token' })).toBeTruthy();
    expect(preview.textContent).not.toMatch(/cannot be copied/);
  });

  it('for a live service refuses identity claims inline and cannot send', async () => {
    const user = userEvent.setup();
    await openPreview(LIVE_PROFILE, user);
    const claims = screen.getByLabelText('Extra claims (JSON object)');
    await user.clear(claims);
    await user.click(claims);
    await user.paste('{"Email": "boss@example.org", "sid": "x"}');
    expect(await screen.findByText(/Not for a live service: Email would make the token read as a sign-on identity/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send logout' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

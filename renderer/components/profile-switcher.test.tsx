import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../test/fake-bridge';
import { renderApp } from '../test/render-app';

async function renderWithBoth(activeId: string) {
  const user = userEvent.setup();
  const rendered = renderApp({ profiles: [LOCAL_PROFILE, LIVE_PROFILE], activeId });
  const select = (await screen.findByLabelText('Active profile')) as HTMLSelectElement;
  await waitFor(() => expect(select.value).toBe(activeId));
  return { ...rendered, user, select };
}

describe('profile switcher', () => {
  it('says a live profile is live and switches only once confirmed', async () => {
    const { user, select, fake } = await renderWithBoth(LOCAL_PROFILE.id);
    await user.selectOptions(select, LIVE_PROFILE.id);
    const dialog = await screen.findByRole('dialog', { name: 'Switch to a live profile?' });
    expect(dialog.textContent).toContain('“City portal” works on live data on debate.example.org');
    expect(fake.callsOf('profiles.setActive')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Switch to live data' }));
    await waitFor(() => expect(fake.callsOf('profiles.setActive')).toEqual([{ id: LIVE_PROFILE.id }]));
  });

  it('stays on the current profile when the switch to live is cancelled', async () => {
    const { user, select, fake } = await renderWithBoth(LOCAL_PROFILE.id);
    await user.selectOptions(select, LIVE_PROFILE.id);
    const dialog = await screen.findByRole('dialog', { name: 'Switch to a live profile?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('profiles.setActive')).toEqual([]);
    expect(select.value).toBe(LOCAL_PROFILE.id);
  });

  it('switches to a local profile without asking', async () => {
    const { user, select, fake } = await renderWithBoth(LIVE_PROFILE.id);
    await user.selectOptions(select, LOCAL_PROFILE.id);
    await waitFor(() => expect(fake.callsOf('profiles.setActive')).toEqual([{ id: LOCAL_PROFILE.id }]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

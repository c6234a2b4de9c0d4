import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';

async function profilesPage(activeId: string) {
  const user = userEvent.setup();
  const rendered = renderApp({ profiles: [LOCAL_PROFILE, LIVE_PROFILE], activeId });
  await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
  const card = (name: string) => screen.getByRole('article', { name });
  await screen.findByRole('article', { name: LIVE_PROFILE.name });
  return { ...rendered, user, card };
}

describe('"Use this profile" on the Profiles page', () => {
  it('asks before switching to a live profile, as the header does: the same confirmation', async () => {
    const { user, card, fake } = await profilesPage(LOCAL_PROFILE.id);
    await user.click(within(card(LIVE_PROFILE.name)).getByRole('button', { name: 'Use this profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch to a live profile?' });
    expect(dialog.textContent).toContain('“City portal” works on live data on debate.example.org');
    expect(fake.callsOf('profiles.setActive')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('profiles.setActive')).toEqual([]);

    await user.click(within(card(LIVE_PROFILE.name)).getByRole('button', { name: 'Use this profile' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Switch to a live profile?' })).getByRole('button', { name: 'Switch to live data' }));
    await waitFor(() => expect(fake.callsOf('profiles.setActive')).toEqual([{ id: LIVE_PROFILE.id }]));
    await waitFor(() => expect((screen.getByLabelText('Active profile') as HTMLSelectElement).value).toBe(LIVE_PROFILE.id));
  });

  it('switches to a local profile without asking', async () => {
    const { user, card, fake } = await profilesPage(LIVE_PROFILE.id);
    await user.click(within(card(LOCAL_PROFILE.name)).getByRole('button', { name: 'Use this profile' }));
    await waitFor(() => expect(fake.callsOf('profiles.setActive')).toEqual([{ id: LOCAL_PROFILE.id }]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

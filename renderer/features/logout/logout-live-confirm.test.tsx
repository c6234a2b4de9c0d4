import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import { useLogoutStore } from './logout-store';

async function openTester(options: Parameters<typeof renderApp>[0]) {
  useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
  const user = userEvent.setup();
  const rendered = renderApp(options);
  await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
  await user.type(screen.getByLabelText('User uid'), 'carol');
  return { ...rendered, user };
}

describe('logout tester on live data', () => {
  it('asks before sending, and Cancel sends nothing', async () => {
    const { user, fake } = await openTester({ profiles: [LIVE_PROFILE] });
    await user.click(screen.getByRole('button', { name: 'Send logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a logout to live data?' });
    expect(dialog.textContent).toContain('This ends real sessions of carol on debate.example.org.');
    // Cancel has the focus: Enter alone does not send.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('logout.send')).toEqual([]);
  });

  it('sends once confirmed, with no countdown', async () => {
    const { user, fake } = await openTester({ profiles: [LIVE_PROFILE] });
    await user.click(screen.getByRole('button', { name: 'Send logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a logout to live data?' });
    expect(within(dialog).queryByRole('timer')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Send to live data' }));
    await waitFor(() => expect(fake.callsOf('logout.send')).toHaveLength(1));
    expect(fake.callsOf('logout.send')[0]!.uid).toBe('carol');
  });

  it('a negative case asks with what it really risks: a broken token the service should refuse, real sessions ending only if it accepts it', async () => {
    const { user, fake } = await openTester({ profiles: [LIVE_PROFILE] });
    const cases = screen.getByRole('region', { name: 'Negative cases' });
    await user.click(within(cases).getByRole('button', { name: 'Wrong secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a broken logout token to live data?' });
    expect(dialog.textContent).toContain('This sends a deliberately broken token (Wrong secret) for carol to debate.example.org. The service should refuse it and end no session; if it accepts it, the real sessions of carol end, and that cannot be undone.');
    expect(dialog.textContent).not.toContain('This ends real sessions');
    await user.click(within(dialog).getByRole('button', { name: 'Send to live data' }));
    await waitFor(() => expect(fake.callsOf('logout.send')).toHaveLength(1));
    expect(fake.callsOf('logout.send')[0]!.options.negativeCase).toBe('wrong-secret');
  });

  it('in French, the negative case’s question says the same', async () => {
    const { user } = await openTester({ profiles: [LIVE_PROFILE] });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    const cases = await screen.findByRole('region', { name: 'Cas négatifs' });
    await user.click(within(cases).getByRole('button', { name: 'Expiré' }));
    const dialog = await screen.findByRole('dialog', { name: 'Envoyer un jeton de déconnexion cassé aux données réelles\u00a0?' });
    expect(dialog.textContent).toContain('Cela envoie un jeton délibérément cassé (Expiré) pour carol à debate.example.org. Le service doit le refuser et ne mettre fin à aucune session\u00a0; s’il l’accepte, les vraies sessions de carol prennent fin, et c’est irréversible.');
  });

  it('does not ask on the sandbox', async () => {
    const { user, fake } = await openTester({ profiles: [LOCAL_PROFILE] });
    await user.click(screen.getByRole('button', { name: 'Send logout' }));
    await waitFor(() => expect(fake.callsOf('logout.send')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

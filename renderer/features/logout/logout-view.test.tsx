import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { msg } from '../../../shared/messages';
import { LIVE_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import { useLogoutStore } from './logout-store';

describe('logout tester', () => {
  it('opens from a row with the uid filled in, previews the token and sends it', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp();
    await screen.findByRole('table', { name: 'Users on page 1' });
    await user.click(screen.getByRole('button', { name: 'Test logout alice@example.com' }));
    expect((screen.getByLabelText('User uid') as HTMLInputElement).value).toBe('alice@example.com');
    expect(await screen.findByText(/"sub": "alice@example.com"/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send logout' }));
    const result = await screen.findByRole('region', { name: /Response/ });
    expect(result.textContent).toMatch(/200 · Accepted/);
    expect(result.textContent).toMatch(/Before: 2.*After: 2/);
    const sent = fake.callsOf('logout.send')[0]!;
    expect(sent.uid).toBe('alice@example.com');
    expect(sent.options.negativeCase).toBeUndefined();
  });

  it('sends a negative case and marks a refusal as expected', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp();
    await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
    await user.type(screen.getByLabelText('User uid'), 'carol');
    const cases = screen.getByRole('region', { name: 'Negative cases' });
    await user.click(within(cases).getByRole('button', { name: 'Wrong secret' }));
    await waitFor(() => expect(cases.textContent).toMatch(/Actual: refused \(400\)✓ as expected/));
    expect(cases.textContent).toMatch(/Expected: refused \(signature does not match\)/);
    expect(fake.callsOf('logout.send')[0]!.options.negativeCase).toBe('wrong-secret');
  });

  it('refuses extra claims that are not a JSON object, inline, and disables sending', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
    await user.type(screen.getByLabelText('User uid'), 'carol');
    const claims = screen.getByLabelText('Extra claims (JSON object)');
    await user.clear(claims);
    await user.type(claims, '[[1]');
    expect(screen.getByText('Must be a JSON object, like {"sid": "abc"}.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send logout' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the code and message the bridge answered when a send fails, not INTERNAL', async () => {
    // The tester's draft outlives a render (it survives tab switches): start from valid claims.
    useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
    const user = userEvent.setup();
    const { fake } = renderApp();
    await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
    await user.type(screen.getByLabelText('User uid'), 'carol');
    fake.failNext('logout.send', { code: 'NETWORK', outcome: 'not-sent', text: msg('http.unreachable', { host: '127.0.0.1:4600', reason: msg('reason.connectionRefused') }), quote: { from: 'system', text: 'ECONNREFUSED' } });
    await user.click(screen.getByRole('button', { name: 'Send logout' }));
    await waitFor(() => expect(fake.callsOf('logout.send')).toHaveLength(1));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not reach 127.0.0.1:4600: the connection was refused (nothing answers at that address).');
    expect(within(alert).getByText('ECONNREFUSED')).toBeTruthy();
    expect(within(alert).getByText('NETWORK')).toBeTruthy();
    expect(alert.textContent).not.toMatch(/INTERNAL|Something went wrong inside/);
  });
});

describe('logout tester: verdicts', () => {
  it('calls a negative case that met a network error or a failing service inconclusive, in its own state, never not as expected', async () => {
    useLogoutStore.setState({ history: [] });
    useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
    const user = userEvent.setup();
    const { fake } = renderApp();
    await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
    await user.type(screen.getByLabelText('User uid'), 'carol');
    const cases = screen.getByRole('region', { name: 'Negative cases' });

    fake.failNext('logout.send', { code: 'NETWORK', outcome: 'unknown', text: msg('http.cut', { host: '127.0.0.1:4600', reason: msg('reason.connectionCut') }), quote: { from: 'system', text: 'ECONNRESET' } });
    await user.click(within(cases).getByRole('button', { name: 'Wrong secret' }));
    const wrongSecret = within(cases).getByRole('button', { name: 'Wrong secret' }).closest('li')!;
    await waitFor(() => expect(wrongSecret.textContent).toMatch(/inconclusive/));
    expect(wrongSecret.textContent).not.toMatch(/not as expected|as expected/);
    expect(wrongSecret.querySelector('[data-verdict="inconclusive"]')).not.toBeNull();

    // A 503 is an answer, but not a judgement of the token either.
    const send = fake.bridge['logout.send'];
    fake.bridge['logout.send'] = async (input) => ({ ...(await send(input)), status: 503, ok: false, outcome: 'unknown', errorCode: 'SERVER_ERROR' });
    await user.click(within(cases).getByRole('button', { name: 'Expired' }));
    const expired = within(cases).getByRole('button', { name: 'Expired' }).closest('li')!;
    await waitFor(() => expect(expired.textContent).toMatch(/inconclusive/));
    expect(expired.textContent).not.toMatch(/not as expected/);

    const history = screen.getByRole('region', { name: 'This session’s tests' });
    expect(within(history).getAllByText(/inconclusive/)).toHaveLength(2);
    expect(history.textContent).not.toMatch(/not as expected/);
  });
});

describe('logout tester: the response badge follows the verdict', () => {
  async function openWith(answer: (input: Parameters<ReturnType<typeof renderApp>['fake']['bridge']['logout.send']>[0]) => Partial<Awaited<ReturnType<ReturnType<typeof renderApp>['fake']['bridge']['logout.send']>>>, language: 'en' | 'fr' = 'en') {
    useLogoutStore.setState({ history: [] });
    useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
    const user = userEvent.setup();
    const rendered = renderApp();
    const send = rendered.fake.bridge['logout.send'];
    rendered.fake.bridge['logout.send'] = async (input) => ({ ...(await send(input)), ...answer(input) });
    if (language === 'fr') await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'fr');
    await user.click(await screen.findByRole('tab', { name: language === 'fr' ? 'Test de déconnexion' : 'Logout tester' }));
    await user.type(screen.getByLabelText(language === 'fr' ? 'uid de l’utilisateur' : 'User uid'), 'carol');
    return { ...rendered, user };
  }
  const saysFailed = { status: 200, ok: true, outcome: 'unknown' as const, errorCode: 'UNEXPECTED_RESPONSE' as const, body: { success: false } };
  const serviceDown = { status: 503, ok: false, outcome: 'unknown' as const, errorCode: 'SERVER_ERROR' as const, body: '<html>503</html>' };
  const refusedIn200 = { status: 200, ok: true, outcome: 'unknown' as const, errorCode: 'UNEXPECTED_RESPONSE' as const, body: { error: 'invalid_request', error_description: 'The logout token signature does not match the secret key.' } };

  it('a valid token answered 200 {"success": false}: "○ 200 · Says it failed" beside the unknown outcome, never a green "Accepted"', async () => {
    const { user } = await openWith(() => saysFailed);
    await user.click(screen.getByRole('button', { name: 'Send logout' }));
    const result = await screen.findByRole('region', { name: /Response/ });
    const badge = await within(result).findByTestId('logout-badge');
    expect(badge.textContent).toBe('○ 200 · Says it failed');
    expect(badge.getAttribute('data-verdict')).toBe('inconclusive');
    expect(badge.className).not.toMatch(/status-badge--ok/);
    expect(result.textContent).not.toMatch(/Accepted/);
    expect(result.textContent).toMatch(/Outcome: Unknown/);
    const history = screen.getByRole('region', { name: 'This session’s tests' });
    expect(history.textContent).toMatch(/says it failed \(200\)○ inconclusive/);
    expect(history.textContent).not.toMatch(/accepted \(200\)/);
  });

  it('a negative case answered 503: "○ 503 · No verdict" beside "○ inconclusive", never a red "Refused"; in French too', async () => {
    const { user } = await openWith(() => serviceDown);
    const cases = screen.getByRole('region', { name: 'Negative cases' });
    await user.click(within(cases).getByRole('button', { name: 'Wrong secret' }));
    const badge = await within(await screen.findByRole('region', { name: /Response · Wrong secret/ })).findByTestId('logout-badge');
    expect(badge.textContent).toBe('○ 503 · No verdict');
    expect(badge.className).not.toMatch(/status-badge--refused/);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    const casesFr = await screen.findByRole('region', { name: 'Cas négatifs' });
    await user.click(within(casesFr).getByRole('button', { name: 'Mauvais secret' }));
    await waitFor(() => expect(screen.getByTestId('logout-badge').textContent).toBe('○ 503 · Sans verdict'));
    expect(screen.getByRole('region', { name: /Réponse · Mauvais secret/ }).textContent).not.toMatch(/Refusé/);
  });

  it('a refusal answered as expected stays green, an accepted broken token red: the colour is the verdict’s', async () => {
    const { user } = await openWith((input) => (input.options.negativeCase ? { status: 200, ok: true, outcome: 'done', body: { success: true } } : {}));
    const cases = screen.getByRole('region', { name: 'Negative cases' });
    await user.click(within(cases).getByRole('button', { name: 'Expired' }));
    const badge = await within(await screen.findByRole('region', { name: /Response · Expired/ })).findByTestId('logout-badge');
    expect(badge.textContent).toBe('✗ 200 · Accepted');
    expect(badge.className).toMatch(/status-badge--refused/);
  });

  it('a negative case refused in the body of a 200 is inconclusive for its own reason, with no advice to send it again (English and French)', async () => {
    const { user } = await openWith((input) => (input.options.negativeCase ? refusedIn200 : {}));
    const cases = screen.getByRole('region', { name: 'Negative cases' });
    await user.click(within(cases).getByRole('button', { name: 'Wrong secret' }));
    const item = within(cases).getByRole('button', { name: 'Wrong secret' }).closest('li')!;
    await waitFor(() => expect(item.querySelector('[data-verdict="inconclusive"]')).not.toBeNull());
    expect(item.textContent).toMatch(/Actual: the body of a 200 says it failed○ inconclusive/);
    expect(cases.textContent).toContain('Inconclusive: the service’s answer says the logout failed or was refused, but with HTTP 200, a status that says success');
    expect(cases.textContent).not.toMatch(/did not judge|Send it again/);
    expect(screen.getByTestId('logout-badge').textContent).toBe('○ 200 · Says it failed');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    const casesFr = await screen.findByRole('region', { name: 'Cas négatifs' });
    expect(casesFr.textContent).toContain('Non concluant\u00a0: la réponse du service dit que la déconnexion a échoué ou a été refusée, mais avec le statut HTTP 200');
    expect(casesFr.textContent).not.toMatch(/n’a pas jugé|Envoyez-le de nouveau/);
  });
});

describe('logout tester: simulate a login (sandbox)', () => {
  it('opens a session for the uid through the bridge and shows the new count', async () => {
    useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
    const user = userEvent.setup();
    const { fake } = renderApp();
    await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
    await user.type(screen.getByLabelText('User uid'), 'carol');
    await user.click(await screen.findByRole('button', { name: 'Simulate a login' }));
    await waitFor(() => expect(fake.callsOf('sandbox.simulateLogin')).toEqual([{ profileId: 'sandbox', uid: 'carol' }]));
    // The count is read again after the login.
    await waitFor(() => expect(fake.callsOf('sandbox.userState').filter((c) => c.uid === 'carol').length).toBeGreaterThan(1));
  });

  it('is not offered on a live profile', async () => {
    useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
    const user = userEvent.setup();
    renderApp({ profiles: [LIVE_PROFILE] });
    await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
    await user.type(screen.getByLabelText('User uid'), 'carol');
    expect(screen.queryByRole('button', { name: 'Simulate a login' })).toBeNull();
  });
});

describe('logout tester in French', () => {
  it('says extra claims are not valid JSON in French, without the browser’s English parser message', async () => {
    useLogoutStore.getState().updateDraft({ extraClaims: '{}' });
    const user = userEvent.setup();
    renderApp();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'fr');
    await user.click(await screen.findByRole('tab', { name: 'Test de déconnexion' }));
    const claims = await screen.findByLabelText('Revendications supplémentaires (objet JSON)');
    await user.clear(claims);
    await user.type(claims, '{{"sid": abc}');
    const problem = await screen.findByText(/^JSON non valide/);
    expect(problem.textContent).not.toMatch(/Unexpected|position|token|Expected/i);
  });
});

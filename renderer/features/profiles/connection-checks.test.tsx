import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { msg, wordInEnglish } from '../../../shared/messages';
import { createI18n } from '../../i18n';
import { ConnectionChecks } from './connection-checks';

afterEach(cleanup);

describe('connection checks', () => {
  it('word what each step found, and a failure, in the window’s language', () => {
    const text = msg('http.unreachable', { host: 'debate.example', reason: msg('reason.connectionRefused') });
    render(
      <I18nextProvider i18n={createI18n('fr')}>
        <ConnectionChecks
          profileName="Portail"
          checks={[
            { step: 'token-authentication', ok: true, detail: msg('connection.tokenDetail', { scope: 'authentication', expires: msg('duration.hours', { count: 2 }) }) },
            { step: 'list-users', ok: false, error: { code: 'NETWORK', outcome: 'not-sent', message: wordInEnglish(text), text, quote: { from: 'system', text: 'ECONNREFUSED' } } },
          ]}
        />
      </I18nextProvider>,
    );
    const list = screen.getByRole('list', { name: 'Test de connexion de Portail' });
    expect(list.textContent).toContain('portée authentication, expire dans 2 h');
    expect(list.textContent).toContain('Impossible de joindre debate.example\u00a0: la connexion a été refusée');
    expect(list.textContent).toContain('ECONNREFUSED');
    expect(list.textContent).not.toMatch(/Could not|expires in|connection was/);
  });
});

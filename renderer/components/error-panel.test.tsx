import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { createI18n } from '../i18n';
import { ErrorPanel } from './error-panel';

afterEach(cleanup);

const show = (error: unknown, language: 'en' | 'fr' = 'en') =>
  render(
    <I18nextProvider i18n={createI18n(language)}>
      <ErrorPanel title="The service did not confirm the erasure" error={error} showOutcome />
    </I18nextProvider>,
  );

describe('error panel', () => {
  it('says plainly that the act happened when only its audit record is missing', () => {
    show(new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'done', status: 200, message: 'Anonymised (status 200), but the audit trail could not record the outcome.' }));
    const block = screen.getByTestId('outcome-unrecorded');
    expect(block.textContent).toMatch(/The act happened, but its outcome is not yet recorded.*\(Done\).*Do not repeat the action/);
  });

  it('does not say so when nothing was sent because the attempt could not be recorded', () => {
    show(new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent', text: msg('gate.notRecordedNotSent', { problem: msg('audit.couldNotWrite') }) }));
    expect(screen.queryByTestId('outcome-unrecorded')).toBeNull();
    expect(screen.getByText('The audit trail could not be written. Nothing was sent: no act happens without its audit record.')).toBeTruthy();
  });

  it('words a core error in the window’s language, and quotes the service’s own words apart, untranslated', () => {
    const error = new PrivacyDeskError({
      code: 'SERVER_ERROR',
      status: 503,
      text: msg('http.serverError', { status: 503, purpose: msg('purpose.listUsers', { page: 2 }) }),
      quote: { from: 'service', text: 'Service Unavailable' },
    });
    expect(error.message).toBe('The service failed (503) while listing users (page 2). Try again in a moment; if it persists, contact the service’s administrators. The service said: “Service Unavailable”.');
    show(error, 'fr');
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('.error-panel__message')?.textContent).toBe(
      'Le service a échoué (503) pendant la lecture des utilisateurs (page 2). Réessayez dans un moment\u00a0; si cela persiste, contactez les administrateurs du service.',
    );
    const quote = alert.querySelector('q');
    expect(quote?.textContent).toBe('Service Unavailable');
    expect(quote?.getAttribute('lang')).toBe('');
    expect(quote?.parentElement?.textContent).toMatch(/^Les mots du service \(non traduits\)\u00a0: /);
  });

  it('says what the code always means when an error carries no message id the window knows', () => {
    show(new PrivacyDeskError({ code: 'TIMEOUT', message: 'No answer in English only.' }), 'fr');
    expect(screen.getByRole('alert').textContent).toContain('Le service n’a pas répondu à temps.');
    expect(screen.getByRole('alert').textContent).not.toContain('English');
  });
});

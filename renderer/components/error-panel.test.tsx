import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { PrivacyDeskError } from '../../shared/errors';
import { createI18n } from '../i18n';
import { ErrorPanel } from './error-panel';

afterEach(cleanup);

const show = (error: unknown) =>
  render(
    <I18nextProvider i18n={createI18n('en')}>
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
    show(new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent', message: 'The disk is full. Nothing was sent.' }));
    expect(screen.queryByTestId('outcome-unrecorded')).toBeNull();
    expect(screen.getByText('The disk is full. Nothing was sent.')).toBeTruthy();
  });
});

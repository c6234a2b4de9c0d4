import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErasureResult } from '../../../shared/users';
import { createI18n } from '../../i18n';
import { renderApp } from '../../test/render-app';
import { logoutFirstFor, useUiStore } from '../../state/ui-store';
import { erasureNotice, erasureNoticeText } from './erasure-notice';

afterEach(() => {
  vi.useRealTimers();
});

const CHECKBOX = 'End the user’s sessions first';

async function openDialog(uid: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Anonymise ${uid}` }));
  const dialog = await screen.findByRole('dialog');
  // The console first asks who the uid belongs to; the form follows.
  await within(dialog).findByLabelText('Type the uid to confirm');
  return { user, dialog };
}

async function confirmAndSend(dialog: HTMLElement, user: ReturnType<typeof userEvent.setup>, uid: string) {
  await user.type(within(dialog).getByLabelText('Type the uid to confirm'), uid);
  vi.useFakeTimers();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  for (let i = 0; i < 6; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
  }
  vi.useRealTimers();
}

describe('erasure dialog: end the user’s sessions first', () => {
  it('is on by default and sends logoutFirst: true', async () => {
    const { fake } = renderApp();
    const { user, dialog } = await openDialog('alice@example.com');
    const box = within(dialog).getByRole('checkbox', { name: CHECKBOX }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await confirmAndSend(dialog, user, 'alice@example.com');
    expect(fake.callsOf('users.erase')).toMatchObject([{ uid: 'alice@example.com', logoutFirst: true }]);
    expect(await screen.findByText(/Sessions ended first \(logout accepted\)\. Verified: the uid no longer resolves\.$/)).toBeTruthy();
  });

  it('turned off, sends logoutFirst: false, and stays off for this profile the next time the dialog opens', async () => {
    const { fake } = renderApp();
    const first = await openDialog('alice@example.com');
    await first.user.click(within(first.dialog).getByRole('checkbox', { name: CHECKBOX }));
    await first.user.click(within(first.dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    const again = await openDialog('alice@example.com');
    expect((within(again.dialog).getByRole('checkbox', { name: CHECKBOX }) as HTMLInputElement).checked).toBe(false);
    await confirmAndSend(again.dialog, again.user, 'alice@example.com');
    expect(fake.callsOf('users.erase')).toMatchObject([{ profileId: 'sandbox', logoutFirst: false }]);
    expect(JSON.parse(localStorage.getItem('privacy-desk-logout-first') ?? '{}')).toEqual({ sandbox: false });
  });

  it('is remembered per profile, and across a restart of the console', async () => {
    useUiStore.getState().setLogoutFirst('sandbox', false);
    expect(logoutFirstFor(useUiStore.getState(), 'sandbox')).toBe(false);
    expect(logoutFirstFor(useUiStore.getState(), 'city-portal')).toBe(true);

    // A new console reads the stored choices; a hand-edited value that is not true/false means the default.
    localStorage.setItem('privacy-desk-logout-first', JSON.stringify({ sandbox: false, 'city-portal': 'no' }));
    vi.resetModules();
    const fresh = await import('../../state/ui-store');
    expect(fresh.logoutFirstFor(fresh.useUiStore.getState(), 'sandbox')).toBe(false);
    expect(fresh.logoutFirstFor(fresh.useUiStore.getState(), 'city-portal')).toBe(true);
  });
});

describe('the notice after an erasure shows each step', () => {
  const t = createI18n('en').t;
  const done: ErasureResult = { action: 'delete', uid: 'bob', outcome: 'done', status: 200, requestId: 'req-9', completedAt: '2026-11-22T18:00:00.000Z' };

  it.each([
    [{ logout: { outcome: 'done' as const, status: 200 }, verification: 'verified' as const }, 'success', 'User bob deleted (request id req-9). Sessions ended first (logout accepted). Verified: the uid no longer resolves.'],
    [{ verification: 'verified' as const }, 'success', 'User bob deleted (request id req-9). Verified: the uid no longer resolves.'],
    [
      { logout: { outcome: 'refused' as const, status: 400, errorCode: 'LOGOUT_REJECTED' as const }, verification: 'verified' as const },
      'info',
      'User bob deleted (request id req-9). The logout sent first was refused (400, LOGOUT_REJECTED): the user’s sessions may still be open. The erasure went ahead as confirmed. Verified: the uid no longer resolves.',
    ],
    [{ logout: { outcome: 'done' as const, status: 200 }, verification: 'not-verified' as const }, 'info', 'User bob deleted (request id req-9). Sessions ended first (logout accepted). Not verified: the uid still resolved afterwards. Check the user on the service.'],
    [{ verification: 'could-not-check' as const }, 'info', 'User bob deleted (request id req-9). Could not check that the uid no longer resolves. Check the user on the service.'],
  ])('%o → %s', (steps, tone, text) => {
    expect(erasureNotice({ ...done, ...steps }).tone).toBe(tone);
    expect(erasureNoticeText({ ...done, ...steps }, t)).toBe(text);
  });

  it('has the same keys in French', () => {
    const fr = createI18n('fr').t;
    expect(erasureNoticeText({ ...done, logout: { outcome: 'unknown', errorCode: 'TIMEOUT' }, verification: 'could-not-check' }, fr)).toMatch(/n’a pas reçu de réponse claire \(TIMEOUT\).*Vérification impossible/);
  });
});

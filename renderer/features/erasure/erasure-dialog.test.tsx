import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import { useUiStore } from '../../state/ui-store';
import { msg } from '../../../shared/messages';

afterEach(() => {
  vi.useRealTimers();
});

async function openDialog(action: 'Anonymise' | 'Delete', uid: string, options: Parameters<typeof renderApp>[0] = {}) {
  const user = userEvent.setup();
  const rendered = renderApp(options);
  await screen.findByRole('table', { name: 'Users on page 1' });
  // Accessible names collapse whitespace, so " bob" is announced as "bob".
  await user.click(screen.getByRole('button', { name: `${action} ${uid.trim()}` }));
  const dialog = await screen.findByRole('dialog');
  // The console first asks who the uid belongs to; the form follows.
  await within(dialog).findByLabelText('Type the uid to confirm');
  return { ...rendered, user, dialog };
}

/** One second at a time: each tick re-renders before the countdown schedules the next one. */
async function tick(seconds: number) {
  for (let i = 0; i < seconds; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
  }
}

/** Lets work scheduled under fake timers (query notifications, refetches) finish before real timers return. */
async function flushThenUseRealTimers() {
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
  }
  vi.useRealTimers();
}

const confirmButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;

describe('erasure dialog', () => {
  it('says what is erased, what is kept, where, and that it cannot be undone', async () => {
    const { dialog } = await openDialog('Anonymise', 'alice@example.com', { profiles: [LIVE_PROFILE] });
    expect(within(dialog).getByRole('heading', { name: 'Anonymise user alice@example.com' })).toBeTruthy();
    expect(dialog.textContent).toMatch(/Name, e-mail, the uid itself, the image/);
    expect(dialog.textContent).toMatch(/contributions and activity/);
    expect(dialog.textContent).toMatch(/CANNOT BE UNDONE/);
    expect(dialog.textContent).toMatch(/City portal on debate\.example\.org/);
    expect(dialog.textContent).toMatch(/LIVE DATA: this changes a real user on debate\.example\.org/);
  });

  it('keeps Confirm disabled on a near miss (case, trailing or missing space) and enables it on an exact match', async () => {
    const { user, dialog } = await openDialog('Delete', 'Carol');
    const input = within(dialog).getByLabelText('Type the uid to confirm');
    expect(confirmButton(dialog).disabled).toBe(true);
    await user.type(input, 'carol');
    expect(confirmButton(dialog).disabled).toBe(true);
    expect(dialog.textContent).toMatch(/check upper and lower case/);
    // The near-miss hint is announced, tied to the input, and marked by a sign as well as a colour.
    const hint = document.getElementById(input.getAttribute('aria-describedby') ?? '')!;
    expect(hint.getAttribute('aria-live')).toBe('polite');
    expect(hint.textContent).toBe('⚠ Does not match: check upper and lower case');
    await user.clear(input);
    await user.type(input, 'Carol ');
    expect(confirmButton(dialog).disabled).toBe(true);
    expect(dialog.textContent).toMatch(/check the spaces/);
    await user.clear(input);
    await user.type(input, 'Carol');
    expect(confirmButton(dialog).disabled).toBe(false);
  });

  it('needs the leading space of " bob" typed too, and shows it in the uid box', async () => {
    const { user, dialog } = await openDialog('Delete', ' bob');
    expect(dialog.textContent).toMatch(/␣bob/);
    expect(dialog.textContent).toMatch(/Starts or ends with a space/);
    const input = within(dialog).getByLabelText('Type the uid to confirm');
    await user.type(input, 'bob');
    expect(confirmButton(dialog).disabled).toBe(true);
    await user.clear(input);
    await user.type(input, ' bob');
    expect(confirmButton(dialog).disabled).toBe(false);
  });

  it('counts down visibly, and Cancel during the countdown sends nothing', async () => {
    const { user, dialog, fake } = await openDialog('Delete', 'alice@example.com');
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'alice@example.com');
    vi.useFakeTimers();
    fireEvent.click(confirmButton(dialog));
    expect(dialog.textContent).toMatch(/Sending in 5 s/);
    await tick(2);
    expect(dialog.textContent).toMatch(/Sending in 3 s/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await tick(10);
    expect(fake.callsOf('users.erase')).toEqual([]);
    expect(within(dialog).getByText('Cancelled: nothing was sent to the service.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('after the countdown sends once (with the reference), closes, announces the request id and reloads the list', async () => {
    const { user, dialog, fake } = await openDialog('Anonymise', 'alice@example.com');
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'alice@example.com');
    await user.type(within(dialog).getByLabelText('Reference (optional)'), 'TICKET-42');
    const listCallsBefore = fake.callsOf('users.list').length;
    vi.useFakeTimers();
    fireEvent.click(confirmButton(dialog));
    await tick(4);
    expect(fake.callsOf('users.erase')).toEqual([]);
    expect(dialog.textContent).toMatch(/Sending in 1 s/);
    await tick(1);
    await flushThenUseRealTimers();
    expect(fake.callsOf('users.erase')).toEqual([
      { profileId: 'sandbox', action: 'anonymize', uid: 'alice@example.com', confirmUid: 'alice@example.com', logoutFirst: true, reference: 'TICKET-42' },
    ]);
    // The notice draws the uid in a box of its own (never broken across lines): the sentence is the paragraph's whole text.
    const said = 'User alice@example.com anonymised (request id req-1). Sessions ended first (logout accepted). Verified: the uid no longer resolves.';
    const notice = await screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === said);
    expect(notice.closest('[role="status"]')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(fake.callsOf('users.list').length).toBeGreaterThan(listCallsBefore));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Anonymise alice@example.com' })).toBeNull());
  });

  it('keeps a failure in the dialog with its code, message and request id', async () => {
    const { user, dialog, fake } = await openDialog('Delete', 'dave smith');
    fake.failNext('users.erase', { code: 'INSUFFICIENT_SCOPE', status: 403, requestId: 'req-403', text: msg('act.scopeMissing', { purpose: msg('purpose.deleteUser', { uid: 'dave smith' }) }) });
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'dave smith');
    vi.useFakeTimers();
    fireEvent.click(confirmButton(dialog));
    await tick(5);
    await flushThenUseRealTimers();
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/INSUFFICIENT_SCOPE/);
    expect(alert.textContent).toMatch(/lacks the “authentication” scope\. Nothing was changed/);
    expect(alert.textContent).toMatch(/req-403/);
    expect(alert.textContent).toMatch(/Outcome: Refused by the service — nothing was changed\./);
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('says in words when the outcome is unknown, so the operator checks the user first', async () => {
    const { user, dialog, fake } = await openDialog('Delete', 'dave smith');
    fake.failNext('users.erase', { code: 'TIMEOUT', message: 'No answer from the service within 30 s.' });
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'dave smith');
    vi.useFakeTimers();
    fireEvent.click(confirmButton(dialog));
    await tick(5);
    await flushThenUseRealTimers();
    const alert = await within(dialog).findByRole('alert');
    expect(alert.querySelector('[data-outcome]')?.getAttribute('data-outcome')).toBe('unknown');
    expect(alert.textContent).toMatch(/Outcome: Unknown — the request may have reached the service\. Check the user before trying again\./);
  });

  it('takes a pasted 300-character reference whole and refuses it with the rule, before anything is sent', async () => {
    const { user, dialog, fake } = await openDialog('Delete', 'dave smith');
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'dave smith');
    const reference = within(dialog).getByLabelText('Reference (optional)') as HTMLInputElement;
    await user.click(reference);
    await user.paste(`DSR-${'x'.repeat(296)}`);
    // Nothing is cut silently: the whole paste stays, to be shortened by the operator.
    expect(reference.value).toHaveLength(300);
    expect(within(dialog).getByText('The reference is 300 characters long; references are at most 200. Enter only the ticket or request number.')).toBeTruthy();
    expect(reference.getAttribute('aria-invalid')).toBe('true');
    expect(confirmButton(dialog).disabled).toBe(true);
    fireEvent.submit(confirmButton(dialog).closest('form')!);
    expect(dialog.textContent).not.toMatch(/Sending in/);
    expect(fake.callsOf('users.erase')).toEqual([]);
    // Spaces at either end do not count, as the gate's rule says; 200 characters are accepted.
    fireEvent.change(reference, { target: { value: `  ${'y'.repeat(200)}  ` } });
    expect(within(dialog).queryByText(/references are at most 200/)).toBeNull();
    expect(confirmButton(dialog).disabled).toBe(false);
  });

  it('copies the real uid with its spaces (never the ␣ signs) from the Copy uid button', async () => {
    const { user, dialog } = await openDialog('Delete', 'dave smith');
    await user.click(within(dialog).getByRole('button', { name: 'Copy uid' }));
    // user-event's clipboard stands in for the system's.
    expect(await navigator.clipboard.readText()).toBe('dave smith');
    expect(await within(dialog).findByText('✓ Copied', { exact: false })).toBeTruthy();
  });

  it.each([
    ['the ␣ sign pasted for a space', 'dave␣smith', 'Does not match, though it looks the same: at character 5 you have the sign “␣”, which only stands for the character “space” (U+0020). Use “Copy uid” and paste here.'],
    ['a no-break space for a space', 'dave\u00a0smith', 'Does not match, though it looks the same: at character 5 you have the character “no-break space” (U+00A0) where the uid has the character “space” (U+0020). Use “Copy uid” and paste here.'],
    ['a zero-width space more', 'dave \u200bsmith', 'Does not match, though it looks the same: after character 5 you have the character “zero-width space” (U+200B), which the uid does not have. Use “Copy uid” and paste here.'],
  ])('says exactly what differs when only invisible characters do: %s', async (_label, typed, words) => {
    const { dialog } = await openDialog('Delete', 'dave smith');
    fireEvent.change(within(dialog).getByLabelText('Type the uid to confirm'), { target: { value: typed } });
    expect(confirmButton(dialog).disabled).toBe(true);
    expect(within(dialog).getByText(words)).toBeTruthy();
  });

  it('says it in French too, and case is never called invisible', async () => {
    const { dialog } = await openDialog('Delete', 'dave smith');
    const input = within(dialog).getByLabelText('Type the uid to confirm');
    fireEvent.change(input, { target: { value: 'Dave smith' } });
    expect(dialog.textContent).toContain('Does not match: check upper and lower case');
    expect(dialog.textContent).not.toContain('looks the same');
    act(() => useUiStore.getState().setLanguage('fr'));
    fireEvent.change(within(dialog).getByLabelText('Saisissez l’uid pour confirmer'), { target: { value: 'dave␣smith' } });
    expect(dialog.textContent).toContain(
      'Ne correspond pas, bien que cela paraisse identique\u00a0: au caractère 5, vous avez le signe «\u00a0␣\u00a0», qui ne fait que représenter le caractère «\u00a0espace\u00a0» (U+0020). Utilisez «\u00a0Copier l’uid\u00a0» et collez ici.',
    );
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { uidsOf } from './new-request-form';

describe('a new request', () => {
  it('is registered from the ticket’s text, received now in the register’s zone, then its page opens', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp();
    await user.click(await screen.findByRole('tab', { name: /Requests/ }));
    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const received = (await screen.findByLabelText('Received')) as HTMLInputElement;
    expect(received.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(screen.getByText(/in the register’s time zone, Europe\/Paris/)).toBeTruthy();
    await user.type(screen.getByLabelText('The ticket’s text'), 'Hello, please erase my account alice@example.com.');
    await user.selectOptions(screen.getByLabelText('Channel'), 'form');
    await user.type(screen.getByLabelText('uids concerned'), 'alice@example.com\n\nalice@example.com');
    await user.click(screen.getByRole('button', { name: 'Register the request' }));
    await screen.findByRole('heading', { name: /^REQ-\d{4}-0001$/ });
    const sent = fake.callsOf('requests.create')[0]!;
    expect(sent).toMatchObject({ channel: 'form', actions: ['anonymize'], notes: 'Hello, please erase my account alice@example.com.', subjects: [{ uid: 'alice@example.com', profileId: 'sandbox' }] });
    expect(sent.receivedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+0[12]:00$/);
    expect(sent.requester).toBeUndefined();
  });

  it('waits for at least one uid and one action', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(await screen.findByRole('tab', { name: /Requests/ }));
    await user.click(await screen.findByRole('button', { name: 'New request' }));
    const submit = await screen.findByRole('button', { name: 'Register the request' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('uids concerned'), 'bob');
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByLabelText('Anonymise'));
    expect((submit as HTMLButtonElement).disabled).toBe(true);
  });

  it('reads one uid a line as typed, spaces kept, each once', () => {
    expect(uidsOf(' a\r\n\n  \nb\n a\nb')).toEqual([' a', 'b']);
  });
});

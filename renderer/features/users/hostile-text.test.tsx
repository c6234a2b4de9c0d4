import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/users';
import { makeUser } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';

/** A name that reverses what follows it (U+202E, then a pop) and an e-mail with a zero-width space inside. */
const HOSTILE_NAME = 'Admin\u202Egpj.exe\u202C Admin';
const HOSTILE_EMAIL = 'a\u200Bb@example.org';
/** Characters that reorder text or draw as nothing: none may reach the page as they are. */
const UNSEEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u061C\uFEFF]/;

function hostileUser(): UserRecord {
  const base = makeUser('evil-user', 3);
  return { ...base, fullName: HOSTILE_NAME, email: HOSTILE_EMAIL, fields: { ...base.fields, full_name: HOSTILE_NAME, email: HOSTILE_EMAIL } };
}

async function withHostileUser() {
  const user = userEvent.setup();
  const rendered = renderApp({ userCount: 3 });
  await screen.findByRole('table', { name: 'Users on page 1' });
  rendered.fake.addUser(hostileUser());
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  const row = (await screen.findByRole('button', { name: 'Show details of evil-user' })).closest('tr')!;
  return { ...rendered, user, row };
}

/** Drawn visibly (RLO, ZWSP…), inside an isolate, and with nothing that reorders or hides left in the text. */
function expectGuarded(element: Element) {
  expect(element.textContent).not.toMatch(UNSEEN);
  expect(element.textContent).toContain('RLO');
  const isolated = [...element.querySelectorAll('bdi')].some((bdi) => bdi.textContent?.includes('gpj.exe'));
  expect(isolated).toBe(true);
}

function expectEmailGuarded(element: Element) {
  expect(element.textContent).not.toMatch(UNSEEN);
  expect(element.textContent).toContain('aZWSPb@example.org');
  expect(element.textContent).not.toContain('ab@example.org');
}

describe('names and e-mails from the service are drawn, never obeyed', () => {
  it('in the users table, the detail panel and the erasure dialog’s identity box', async () => {
    const { user, row } = await withHostileUser();
    expectGuarded(row);
    expectEmailGuarded(row);
    // A tooltip shows the marks too: the browser would draw a raw control in it.
    for (const titled of row.querySelectorAll('[title]')) expect(titled.getAttribute('title')).not.toMatch(UNSEEN);

    await user.click(within(row).getByRole('button', { name: 'Show details of evil-user' }));
    const panel = screen.getByRole('complementary', { name: 'User details' });
    expectGuarded(panel);
    expectEmailGuarded(panel);

    await user.click(within(panel).getByRole('button', { name: 'Delete evil-user' }));
    const identity = await within(await screen.findByRole('dialog')).findByRole('region', { name: /^Who this uid belongs to/ });
    expectGuarded(identity);
    expectEmailGuarded(identity);
  });

  it('in "Find a person", with the matched part marked', async () => {
    const { fake } = await withHostileUser();
    const box = screen.getByRole('search');
    fireEvent.change(within(box).getByLabelText('Find a person — every page'), { target: { value: 'admin' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Find' }));
    await waitFor(() => expect(fake.callsOf('users.index')).toHaveLength(1));
    const jobId = `job-${fake.calls.findIndex((call) => call.method === 'users.index') + 1}`;
    act(() => fake.emitEvent('job.finished', { jobId, kind: 'users.index', status: 'completed', result: { users: 4, pages: 1, indexedAt: '2026-11-22T12:00:00.000Z' } }));
    const results = await screen.findByRole('list', { name: 'People matching “admin”' });
    const result = within(results).getAllByRole('button')[0]!;
    expectGuarded(result);
    expectEmailGuarded(result);
    expect(result.getAttribute('aria-label')).not.toMatch(UNSEEN);
    expect(result.querySelector('mark')?.textContent).toBe('Admin');
  });
});

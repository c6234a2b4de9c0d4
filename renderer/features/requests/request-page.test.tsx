import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeRequest } from '../../test/fake-requests';
import { renderApp } from '../../test/render-app';
import { useRequestsNav } from './request-nav-store';
import { useBatchDraft } from '../batch/batch-draft-store';

const LATE = makeRequest('REQ-2026-0001', -3, {
  pauses: [{ from: '2026-03-05T10:00:00+01:00', to: '2026-03-07T10:00:00+01:00' }],
  history: [
    { event: 1, at: '2026-03-03T09:12:00+01:00', by: 'dpo', via: 'app', change: 'create', summary: 'created' },
    { event: 2, at: '2026-03-05T10:00:00+01:00', by: 'dpo', via: 'app', change: 'pause', summary: 'clock paused' },
    { event: 3, at: '2026-03-07T10:00:00+01:00', by: 'dpo', via: 'cli', change: 'resume', summary: 'clock resumed' },
  ],
  receivedAt: '2026-03-03T09:00:00+01:00',
  subjects: [{ uid: 'alice@example.com', profileId: 'sandbox' }],
});

async function openPage(id: string, requests = [LATE]) {
  const user = userEvent.setup();
  const rendered = renderApp({ requests, requesterContacts: { [LATE.id]: { name: 'Mme Martin', contact: 'martin@mail.example' } } });
  await user.click(await screen.findByRole('tab', { name: /Requests/ }));
  useRequestsNav.setState({ place: { kind: 'request', id } });
  await screen.findByRole('heading', { name: id });
  return { user, ...rendered };
}

const timelineTexts = () => within(screen.getByTestId('request-timeline')).getAllByRole('listitem').map((item) => item.querySelector('.timeline__title')?.textContent);

describe('a request’s page', () => {
  it('tells its timeline oldest first: received, paused, resumed, then the acts linked with their outcomes', async () => {
    const { fake, queryClient } = await openPage(LATE.id);
    expect(timelineTexts()).toEqual(['Received (E-mail)', 'Registered', 'Clock paused: waiting for the requester’s identity', 'Clock resumed']);
    // An act sent for the request (as the erasure dialog does) is linked, and the page shows its outcome.
    await fake.bridge['users.erase']({ profileId: 'sandbox', action: 'anonymize', uid: 'alice@example.com', confirmUid: 'alice@example.com', requestId: LATE.id });
    // As the dialog does once the act has ended.
    await queryClient.invalidateQueries({ queryKey: ['requests'] });
    await waitFor(() => expect(timelineTexts().at(-1)).toContain('Anonymised alice@example.com'));
    expect(screen.getByTestId('request-timeline').textContent).toContain('done · verified gone');
  });

  it('offers to link the acts under its id that are not linked to it', async () => {
    const { user, fake, queryClient } = await openPage(LATE.id);
    fake.unlinkedAct(LATE.id, { kind: 'act', actId: 'cli-act', uid: 'alice@example.com', action: 'delete', outcome: 'done', at: '2026-03-09T10:00:00+01:00' });
    await queryClient.invalidateQueries({ queryKey: ['requests'] });
    const notice = await screen.findByTestId('unlinked-acts');
    expect(notice.textContent).toContain('1 act in the audit trail has this request’s id as its reference but is not linked to it');
    await user.click(within(notice).getByRole('button', { name: 'Link them to this request' }));
    await waitFor(() => expect(screen.queryByTestId('unlinked-acts')).toBeNull());
    expect(fake.request(LATE.id)?.links.actIds).toEqual(['cli-act']);
    expect(timelineTexts().at(-1)).toContain('Deleted alice@example.com');
  });

  it('opens the erasure dialog for a uid with the request as its reference', async () => {
    const { user } = await openPage(LATE.id);
    await user.click(within(screen.getByTestId('request-subject')).getByRole('button', { name: 'Anonymise…' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByLabelText(/Reference/) as HTMLInputElement).value).toBe(LATE.id));
  });

  it('adds no remove button to its only uid, and removes one of several', async () => {
    const two = makeRequest('REQ-2026-0011', 20, { subjects: [{ uid: 'martine', profileId: 'sandbox' }, { uid: 'carol', profileId: 'sandbox' }] });
    const { user, fake } = await openPage(two.id, [two]);
    await user.click(screen.getByRole('button', { name: 'Remove martine from the request' }));
    await waitFor(() => expect(fake.request(two.id)?.subjects).toEqual([{ uid: 'carol', profileId: 'sandbox' }]));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull());
  });

  it('starts a batch of its uids on the Batch tab, for the request (its reference, linked when started)', async () => {
    const { user } = await openPage(LATE.id);
    await user.click(screen.getByRole('button', { name: 'Start a batch…' }));
    expect((await screen.findByTestId('batch-for-request')).textContent).toContain(`For request ${LATE.id}`);
    expect(useBatchDraft.getState()).toMatchObject({ pasted: 'alice@example.com', reference: LATE.id, requestId: LATE.id, action: 'anonymize', separator: 'none' });
    await user.click(screen.getByRole('button', { name: 'Not for this request' }));
    expect(useBatchDraft.getState().requestId).toBe('');
  });

  it('shows the core’s reason when an extension comes too late, and writes nothing', async () => {
    const { user, fake } = await openPage(LATE.id);
    await user.click(screen.getByRole('button', { name: 'Extend by two months…' }));
    await user.type(screen.getByLabelText('Why (complex or numerous requests)'), 'Numerous accounts');
    await user.click(screen.getByRole('button', { name: 'Extend' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The request was not extended');
    expect(alert.textContent).toContain('cannot be extended: an extension must be decided and the person told within the first period');
    expect(fake.request(LATE.id)?.extension).toBeUndefined();
  });

  it('extends in time with the reason and when the person was told', async () => {
    const { user, fake } = await openPage('REQ-2026-0007', [makeRequest('REQ-2026-0007', 12)]);
    await user.click(screen.getByRole('button', { name: 'Extend by two months…' }));
    await user.type(screen.getByLabelText('Why (complex or numerous requests)'), 'Numerous accounts');
    await user.click(screen.getByRole('button', { name: 'Extend' }));
    await waitFor(() => expect(fake.request('REQ-2026-0007')?.extension?.reason).toBe('Numerous accounts'));
    expect(fake.callsOf('requests.apply').at(-1)?.change).toMatchObject({ kind: 'extend', personToldAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/) });
    expect(await screen.findByText(/Extended by two months: Numerous accounts/, { selector: 'dd' })).toBeTruthy();
  });

  it('refuses with the ground in words, then closes nothing more', async () => {
    const { user, fake } = await openPage(LATE.id);
    await user.click(screen.getByRole('button', { name: 'Refuse…' }));
    await user.type(screen.getByLabelText('Ground of the refusal'), 'Art. 17(3)(b): a legal obligation to keep');
    await user.click(screen.getByRole('button', { name: 'Refuse the request' }));
    await waitFor(() => expect(fake.request(LATE.id)?.status).toBe('refused'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Close as answered' })).toBeNull());
  });

  it('closes as answered', async () => {
    const { user, fake } = await openPage(LATE.id);
    await user.click(screen.getByRole('button', { name: 'Close as answered' }));
    await waitFor(() => expect(fake.request(LATE.id)?.status).toBe('answered'));
  });

  it('never shows the requester’s contact until asked, and asks the core for it', async () => {
    const { user, fake } = await openPage(LATE.id);
    expect(screen.queryByText(/martin@mail.example/)).toBeNull();
    expect(fake.callsOf('requests.get').every((input) => !input.withContact)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Show contact' }));
    expect((await screen.findByTestId('requester-contact')).textContent).toBe('Mme Martin · martin@mail.example');
    expect(fake.callsOf('requests.get').at(-1)).toEqual({ id: LATE.id, withContact: true });
    await user.click(screen.getByRole('button', { name: 'Hide contact' }));
    await waitFor(() => expect(screen.queryByText(/martin@mail.example/)).toBeNull());
  });
});

describe('a closed request’s answer pack', () => {
  it('is downloaded in the chosen language, naming the requester only when asked', async () => {
    const closed = makeRequest('REQ-2026-0008', -1, { status: 'answered' });
    const { user, fake } = await openPage(closed.id, [closed]);
    const saved: string[] = [];
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = () => 'blob:fake';
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      saved.push(this.download);
    };
    try {
      await user.selectOptions(screen.getByLabelText('Language of the pack'), 'fr');
      await user.click(screen.getByRole('button', { name: 'Download the answer pack' }));
      await waitFor(() => expect(saved).toEqual(['privacy-desk-receipt-REQ-2026-0008.pdf', 'privacy-desk-answer-REQ-2026-0008-fr.txt']));
      expect(fake.callsOf('requests.answerPack')).toEqual([{ id: closed.id, language: 'fr', withContact: false }]);
    } finally {
      URL.createObjectURL = createObjectURL;
      HTMLAnchorElement.prototype.click = click;
    }
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../../shared/audit';
import { renderApp } from '../../test/render-app';
import { FAKE_HEAD_HASH } from '../../test/fake-bridge';
import { useAuditFilter } from './audit-filter-store';
import { giveAuditGridAHeight } from '../../test/audit-grid-layout';
import { bytesFromBase64 } from './receipt-button';
import { msg } from '../../../shared/messages';
import { confirmThroughCountdown } from '../../test/countdown';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'app', action: 'delete' } as const;
const ENTRIES: AuditEntry[] = [
  { ...base, at: '2026-11-21T10:01:00.000+01:00', uid: 'alice', outcome: 'attempted', actId: 'a1', reference: 'TICKET-7' },
  { ...base, at: '2026-11-21T10:01:01.000+01:00', uid: 'alice', outcome: 'done', actId: 'a1', reference: 'TICKET-7', status: 200 },
  { ...base, at: '2026-11-21T10:02:00.000+01:00', uid: 'bob', outcome: 'attempted', actId: 'b2', reference: 'REQ-9' },
  { ...base, at: '2026-11-21T10:02:01.000+01:00', uid: 'bob', outcome: 'done', actId: 'b2', reference: 'REQ-9', status: 200 },
];

let restoreLayout: () => void = () => undefined;
const downloads: HTMLAnchorElement[] = [];
let createObjectURL: ReturnType<typeof vi.fn>;

beforeEach(() => {
  useAuditFilter.getState().clear();
  restoreLayout = giveAuditGridAHeight();
  downloads.length = 0;
  createObjectURL = vi.fn(() => 'blob:fake');
  URL.createObjectURL = createObjectURL as unknown as typeof URL.createObjectURL;
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this);
  });
});

afterEach(() => {
  vi.useRealTimers();
  restoreLayout();
  vi.restoreAllMocks();
});

async function openAudit() {
  const user = userEvent.setup();
  const rendered = renderApp({ auditEntries: ENTRIES });
  await user.click(await screen.findByRole('tab', { name: 'Audit trail' }));
  await screen.findByRole('table', { name: 'Audit trail entries' });
  return { ...rendered, user };
}

describe('receipt button', () => {
  it('for the filtered reference: asks main for the PDF in the window’s language, saves its bytes, names the file and the chain head', async () => {
    const { user, fake } = await openAudit();
    expect(screen.queryByRole('button', { name: /every act under the reference/ })).toBeNull();
    await user.type(screen.getByLabelText('Reference'), 'req-9');
    await user.click(await screen.findByRole('button', { name: 'Receipt — PDF receipt of every act under the reference req-9' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(fake.callsOf('audit.receipt')).toEqual([{ reference: 'req-9', locale: 'en' }]);
    expect(downloads[0]!.download).toBe('receipt-en.pdf');
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(blob.type).toBe('application/pdf');
    expect(new TextDecoder().decode(await blob.arrayBuffer())).toBe('%PDF-1.3 fake receipt');
    expect(await screen.findByText(`Receipt saved as receipt-en.pdf (1 act). Chain head hash, to write into the request file: ${FAKE_HEAD_HASH}`)).toBeTruthy();
  });

  it('on an audit row: the receipt of that act', async () => {
    const { user, fake } = await openAudit();
    const table = screen.getByRole('table', { name: 'Audit trail entries' });
    const alice = within(table)
      .getAllByRole('row')
      .find((row) => row.textContent?.includes('alice'))!;
    await user.click(within(alice).getByRole('button', { name: 'Receipt — PDF receipt of this act' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(fake.callsOf('audit.receipt')).toEqual([{ actId: 'a1', locale: 'en' }]);
  });

  it('says why when the receipt cannot be made', async () => {
    const { user, fake } = await openAudit();
    fake.failNext('audit.receipt', { code: 'NOT_FOUND', text: msg('receipt.nothingUnderReference', { reference: 'req-9' }) });
    await user.type(screen.getByLabelText('Reference'), 'req-9');
    await user.click(await screen.findByRole('button', { name: /every act under the reference req-9/ }));
    expect(await screen.findByText(/^The receipt could not be made: No act in the audit trail carries the reference “req-9”\./)).toBeTruthy();
    expect(downloads).toHaveLength(0);
  });

  it('after an erasure with a reference, the notice offers the receipt of that reference', async () => {
    const user = userEvent.setup();
    const { fake } = renderApp({ auditEntries: [{ ...base, at: '2026-11-21T10:05:00.000+01:00', uid: 'alice@example.com', outcome: 'done', actId: 'e5', reference: 'TICKET-42' }] });
    await screen.findByRole('table', { name: 'Users on page 1' });
    await user.click(screen.getByRole('button', { name: 'Anonymise alice@example.com' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'alice@example.com');
    await user.type(within(dialog).getByLabelText('Reference (optional)'), 'TICKET-42');
    await confirmThroughCountdown(dialog);
    const notices = await screen.findByRole('region', { name: 'Notifications' });
    // The notice draws the uid in a box of its own: the sentence is the paragraph's whole text.
    await within(notices).findByText((_, element) => element?.tagName === 'P' && /^User alice@example\.com anonymised/.test(element.textContent ?? ''));
    await user.click(within(notices).getByRole('button', { name: 'Receipt — PDF receipt of every act under the reference TICKET-42' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(fake.callsOf('audit.receipt')).toEqual([{ reference: 'TICKET-42', locale: 'en' }]);
  });

  it('decodes base64 to the exact bytes', () => {
    expect([...bytesFromBase64(btoa('\u0000\u00ff%PDF'))]).toEqual([0, 255, 37, 80, 68, 70]);
  });
});

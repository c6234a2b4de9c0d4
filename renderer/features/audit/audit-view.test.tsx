import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, CorruptAuditLine } from '../../../shared/audit';
import { PrivacyDeskError } from '../../../shared/errors';
import { renderApp } from '../../test/render-app';
import { FAKE_HEAD_HASH } from '../../test/fake-bridge';
import { useAuditFilter } from './audit-filter-store';
import { AUDIT_ROW_HEIGHT } from './audit-table';
import { giveAuditGridAHeight } from '../../test/audit-grid-layout';
import { groupAuditRows } from './group-acts';
import { AUDIT_PAGE_ENTRIES } from './read-audit-in-pages';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'app' } as const;
const entry = (at: string, uid: string, outcome: AuditEntry['outcome'], more: Partial<AuditEntry> = {}): AuditEntry => ({
  ...base,
  at: `2026-11-21T10:${at}.000+01:00`,
  action: 'delete',
  uid,
  outcome,
  ...more,
});

// Oldest first, as the gate appends them.
const ENTRIES: AuditEntry[] = [
  entry('00:00', 'old-user', 'done', { status: 200 }),
  entry('01:00', 'alice', 'attempted', { actId: 'a1', reference: 'TICKET-7' }),
  entry('01:01', 'alice', 'done', { actId: 'a1', reference: 'TICKET-7', status: 200, requestId: 'req-alice' }),
  entry('02:00', 'bob', 'attempted', { actId: 'b2' }),
  // Log out, then anonymise, then the verification: one act.
  entry('03:00', 'carol', 'attempted', { actId: 'c3', action: 'logout', reference: 'REQ-9' }),
  entry('03:01', 'carol', 'done', { actId: 'c3', action: 'logout', reference: 'REQ-9', status: 200 }),
  entry('03:02', 'carol', 'attempted', { actId: 'c3', action: 'anonymize', reference: 'REQ-9' }),
  entry('03:03', 'carol', 'done', { actId: 'c3', action: 'anonymize', reference: 'REQ-9', status: 200, requestId: 'req-carol' }),
  // The check afterwards: the same request again (its own attempt), answered 404 once the first took effect.
  entry('03:04', 'carol', 'attempted', { actId: 'c3', action: 'anonymize', reference: 'REQ-9' }),
  entry('03:05', 'carol', 'verification', { actId: 'c3', action: 'anonymize', reference: 'REQ-9', verification: 'verified', status: 404 }),
  // A deliberate negative logout test.
  entry('04:00', 'dave', 'attempted', { actId: 'd4', action: 'logout', test: { case: 'alg-none' } }),
  entry('04:01', 'dave', 'refused', { actId: 'd4', action: 'logout', test: { case: 'alg-none' }, status: 400, errorCode: 'LOGOUT_REJECTED' }),
];

let restoreLayout: () => void = () => undefined;

beforeEach(() => {
  useAuditFilter.getState().clear();
  restoreLayout = giveAuditGridAHeight();
});

afterEach(() => {
  restoreLayout();
  vi.restoreAllMocks();
});

async function openAudit(options: Parameters<typeof renderApp>[0]) {
  const user = userEvent.setup();
  const rendered = renderApp(options);
  await user.click(await screen.findByRole('tab', { name: 'Audit trail' }));
  const table = await screen.findByRole('table', { name: 'Audit trail entries' });
  // Found afresh each time: a filter that matches nothing replaces the table with a message.
  const bodyRows = () => within(screen.getByRole('table', { name: 'Audit trail entries' })).getAllByRole('row').slice(1);
  return { ...rendered, user, table, bodyRows };
}

describe('audit trail', () => {
  it('shows one row per act, newest first, with its steps, final outcome and verification', async () => {
    const { bodyRows } = await openAudit({ auditEntries: ENTRIES });
    const rows = bodyRows().map((row) => row.textContent ?? '');
    expect(rows).toHaveLength(5);
    const [dave, carol, bob, alice, old] = rows;
    expect(carol).toMatch(/Anonymise.*Logout first.*carol.*REQ-9.*Done.*Logout ✓ · Checked: uid gone.*Logout: Done · Anonymise: Done.*200.*req-carol/);
    expect(bob).toMatch(/bob.*Outcome not recorded — check the user/);
    expect(alice).toMatch(/alice.*TICKET-7.*Done.*200.*req-alice/);
    expect(alice).not.toMatch(/Attempted/);
    expect(old).toMatch(/old-user.*Done/);
    expect(dave).toMatch(/Test · alg none/);
  });

  it('reads an erasure check that was sent but never answered as "could not check", not as a new step', () => {
    const lined = (entries: AuditEntry[]) => entries.map((e, index) => ({ ...e, line: index + 1 }));
    const [row] = groupAuditRows(
      lined([
        entry('05:00', 'erin', 'attempted', { actId: 'e5', action: 'anonymize' }),
        entry('05:01', 'erin', 'done', { actId: 'e5', action: 'anonymize', status: 200 }),
        entry('05:02', 'erin', 'attempted', { actId: 'e5', action: 'anonymize' }),
      ]),
    );
    expect(row).toMatchObject({ kind: 'act', outcome: 'done', steps: [{ operation: 'anonymize', outcome: 'done' }], verification: 'could-not-check' });
  });

  it('shows a batch job\'s summary as one row with its counts and how the run ended', async () => {
    const summary = entry('06:00', '', 'summary', {
      actId: 's6',
      action: 'batch',
      via: 'batch',
      jobId: '20261121-100600-abcdef',
      reference: 'REQ-250',
      batch: { operation: 'delete', total: 250, done: 240, doneBeforeInterruption: 2, notFound: 5, failed: 3, unfinished: 0, ended: 'finished' },
    });
    const { bodyRows } = await openAudit({ auditEntries: [...ENTRIES, summary] });
    const first = bodyRows()[0]!.textContent ?? '';
    expect(first).toMatch(/Batch job.*REQ-250.*∑ Summary.*Delete 250: 242 done, 5 not found, 3 failed, 0 unfinished \(finished\)/);
  });

  it('marks a deliberate test as a test, and an act without a recorded outcome as a warning with a sign', async () => {
    const { bodyRows } = await openAudit({ auditEntries: ENTRIES });
    const [dave, , bob] = bodyRows();
    expect(dave!.className).toMatch(/is-test/);
    expect(bob!.className).toMatch(/is-unknown/);
    expect(within(bob!).getByText('Outcome not recorded — check the user').parentElement!.textContent).toMatch(/^⚠/);
  });

  it('shows each corrupt line as text with its number, and every good row still', async () => {
    const corrupt: CorruptAuditLine[] = [
      { line: 2, problem: 'not an object (null)', excerpt: 'null' },
      { line: 5, problem: 'not valid JSON', excerpt: '<img src=x onerror="alert(1)">' },
    ];
    const entries = ENTRIES.slice(0, 3).map((e, index) => ({ ...e, line: [1, 3, 4][index]! }));
    const { bodyRows, container } = await openAudit({ auditEntries: entries, auditCorrupt: corrupt });
    const rows = bodyRows().map((row) => row.textContent ?? '');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/Corrupt entry, line 5:.*not valid JSON.*<img src=x onerror="alert\(1\)">/);
    expect(rows[1]).toMatch(/alice/);
    expect(rows[2]).toMatch(/Corrupt entry, line 2:.*not an object/);
    expect(rows[3]).toMatch(/old-user/);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(/2 lines could not be read \(lines 2, 5\)/)).toBeTruthy();
  });

  it('says the chain is verified with the head hash, or where it breaks', async () => {
    await openAudit({ auditEntries: ENTRIES });
    const badge = screen.getByTestId('integrity');
    expect(badge.textContent).toMatch(/Verified · 12 entries/);
    expect(badge.textContent).toContain(`${FAKE_HEAD_HASH.slice(0, 12)}…`);
    expect(within(badge).getByRole('button', { name: 'Copy full hash' })).toBeTruthy();
  });

  it('shows a broken chain prominently with its line and kind, and a torn tail set aside', async () => {
    await openAudit({
      auditEntries: ENTRIES,
      auditVerdict: { ok: false, entries: 12, kind: 'edited', line: 4, message: 'Line 4 was changed after it was written.', headHash: null },
      auditSetAside: { path: '/data/audit.jsonl.torn-1', bytes: 20 },
    });
    expect(screen.getByRole('alert').textContent).toMatch(/Chain broken at line 4: an entry was edited.*Line 4 was changed/);
    expect(screen.getByText(/A torn last line \(20 bytes\).*\/data\/audit\.jsonl\.torn-1/)).toBeTruthy();
  });

  it('filters by reference and exports the filtered rows through a download', async () => {
    const createObjectURL = vi.fn(() => 'blob:fake');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    const { user, bodyRows, fake } = await openAudit({ auditEntries: ENTRIES });
    await user.type(screen.getByLabelText('Reference'), 'req-9');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]!.textContent).toMatch(/carol/);
    expect(screen.getByText('1 act matches (of 12 entries)')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(fake.callsOf('audit.export')).toEqual([{ format: 'csv', filter: { reference: 'req-9' } }]);
    expect(clicks[0]!.download).toBe('audit.csv');
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toMatch(/carol,REQ-9/);
    expect(await screen.findByText(/Exported 6 entries as audit\.csv · chain head ab12cd34ef56…/)).toBeTruthy();

    // The notice stays; switched to French, it reads in French like the rest of the window.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    expect(await screen.findByText(/6 entrées exportées dans audit\.csv · tête de chaîne ab12cd34ef56…/)).toBeTruthy();
    expect(screen.queryByText(/Exported 6 entries/)).toBeNull();
  });

  it('opens 50,000 entries with only a window of rows in the page, and scrolling brings later rows', async () => {
    const many: AuditEntry[] = Array.from({ length: 50_000 }, (_, index) =>
      entry('00:00', `user-${index}`, 'done', { at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(), status: 200 }),
    );
    const { bodyRows, table, fake } = await openAudit({ auditEntries: many });
    expect(table.getAttribute('aria-rowcount')).toBe('50001');
    // Read in pages, never as one answer of 50,000 entries the window would parse at once.
    const pages = fake.callsOf('audit.readPage');
    expect(pages.map((page) => page.from)).toEqual(Array.from({ length: 50_000 / AUDIT_PAGE_ENTRIES }, (_, index) => index * AUDIT_PAGE_ENTRIES));
    expect(pages.every((page) => page.limit === AUDIT_PAGE_ENTRIES && AUDIT_PAGE_ENTRIES <= 5_000)).toBe(true);
    expect(fake.callsOf('audit.read')).toEqual([]);
    const first = bodyRows();
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(60);
    expect(first[0]!.textContent).toMatch(/user-49999/);
    expect(first[0]!.getAttribute('aria-rowindex')).toBe('2');

    // The table is its own scroll box.
    const scroller = table;
    act(() => {
      Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 40_000 * AUDIT_ROW_HEIGHT });
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(bodyRows().some((row) => /user-9999\b/.test(row.textContent ?? ''))).toBe(true));
    expect(bodyRows().length).toBeLessThan(60);
    expect(bodyRows().some((row) => /user-49999/.test(row.textContent ?? ''))).toBe(false);
  });
});

describe('view errors and unrecorded outcomes', () => {
  it('keeps the navigation usable when a view fails, says what failed and offers to try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    const { fake } = renderApp({ auditEntries: ENTRIES });
    // A reading the view cannot handle at all: the boundary, not a blank page.
    fake.bridge['audit.readPage'] = async () => ({ reading: 'r', entries: [], total: 0, corrupt: 42, verdict: { ok: true, entries: 0, headHash: null } }) as never;
    await user.click(await screen.findByRole('tab', { name: 'Audit trail' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/The audit trail could not be shown/);
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });

  it('raises a notice that stays when an act happened but its outcome could not be recorded', async () => {
    const { queryClient } = renderApp();
    await screen.findByRole('tab', { name: 'Audit trail' });
    const failing = queryClient.getMutationCache().build(queryClient, {
      mutationFn: () => Promise.reject(new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'done', status: 200, requestId: 'req-7', message: 'Anonymised, but the audit trail could not record the outcome.' })),
    });
    await act(async () => {
      await failing.execute(undefined).catch(() => undefined);
    });
    const notice = await screen.findByText(/The act happened, but its outcome is not yet recorded.*\(Done\).*Do not repeat the action.*req-7/);
    expect(notice.closest('.notice')!.className).toMatch(/notice--error/);
  });

  it('an acknowledgement is a row of its own; acknowledging from the badge writes through the bridge and reads the trail again', async () => {
    const finding = '3f9a1c2b7d4e';
    const reason = 'Restored from the backup after a disk failure (incident INC-88).';
    const text = { id: 'anchor.removed', params: { count: 2, found: 2, held: { id: 'anchor.held', params: { seq: 4, hash: 'ab4ca7874e25…', at: '2026-11-21T10:05:00.000+01:00' } } } };
    const acknowledgement: AuditEntry = { at: '2026-11-21T10:06:00.000+01:00', actId: 'k1', action: 'acknowledge', outcome: 'acknowledged', uid: '', profileId: '', profileName: '', baseUrl: '', via: 'app', operator: 'anna', acknowledgement: { finding: 'aaaaaaaaaaaa', kind: 'unanchored', problem: 'The trail holds entry 5…', reason: 'Written by the CLI without a keychain on the build server.' } };
    const { user, bodyRows, fake } = await openAudit({
      auditEntries: [...ENTRIES, acknowledgement],
      auditVerdict: { ok: false, entries: 13, kind: 'rolled-back', line: 14, message: 'The last 2 entries were removed…', text, headHash: FAKE_HEAD_HASH, anchor: { store: 'keychain', state: 'checked', findings: 1, open: [{ finding, kind: 'rolled-back', text }] } },
    });
    expect(bodyRows()[0]!.textContent).toMatch(/Acknowledgement.*Finding acknowledged.*Finding aaaaaaaaaaaa: Written by the CLI without a keychain on the build server\..*anna/);

    const reads = fake.callsOf('audit.readPage').length;
    const details = screen.getByTestId('anchor-findings');
    await user.click(within(details).getByText('Details: 1 finding of the anchor'));
    await user.click(within(details).getByRole('button', { name: 'Acknowledge…' }));
    await user.type(within(details).getByLabelText(`Why is finding ${finding} acceptable?`), reason);
    await user.click(within(details).getByRole('button', { name: `Acknowledge finding ${finding}` }));
    await waitFor(() => expect(fake.callsOf('audit.acknowledge')).toEqual([{ finding, reason }]));
    await waitFor(() => expect(fake.callsOf('audit.readPage').length).toBeGreaterThan(reads));
    expect(await screen.findByText(`Finding ${finding} acknowledged; it stays on record, with your reason.`)).toBeTruthy();
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, ChainVerdict } from '../../../shared/audit';
import { renderApp } from '../../test/render-app';
import { giveAuditGridAHeight } from '../../test/audit-grid-layout';
import { en } from '../../i18n/en';
import { fr } from '../../i18n/fr';
import { useAuditFilter } from './audit-filter-store';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'app', operator: 'dpo' } as const;
const entry = (line: number, uid: string, outcome: AuditEntry['outcome'], more: Partial<AuditEntry> = {}): AuditEntry & { line: number } => ({
  ...base,
  at: `2026-11-21T10:${String(line).padStart(2, '0')}:00.000+01:00`,
  action: 'delete',
  uid,
  outcome,
  line,
  ...more,
});

let restoreLayout: () => void = () => undefined;
beforeEach(() => {
  useAuditFilter.getState().clear();
  restoreLayout = giveAuditGridAHeight();
});
afterEach(() => restoreLayout());

async function openAudit(options: Parameters<typeof renderApp>[0], language: 'en' | 'fr' = 'en') {
  const user = userEvent.setup();
  const rendered = renderApp(options);
  if (language === 'fr') await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'fr');
  await user.click(await screen.findByRole('tab', { name: language === 'fr' ? 'Journal d’audit' : 'Audit trail' }));
  const table = await screen.findByRole('table', { name: language === 'fr' ? 'Entrées du journal d’audit' : 'Audit trail entries' });
  const rowOf = (uid: string) => within(table).getAllByRole('row').find((row) => row.querySelector(`[title="${uid}"]`) !== null)!;
  return { ...rendered, user, table, rowOf };
}

describe('rows the chain does not vouch for are marked, never a plain "✓ Done"', () => {
  // Two forged lines put before the chain (a delete of forged-user under REQ-1), then a genuine act.
  const forged = [
    entry(1, 'forged-user', 'attempted', { actId: 'f1', reference: 'REQ-1' }),
    entry(2, 'forged-user', 'done', { actId: 'f1', reference: 'REQ-1', status: 200 }),
    entry(3, 'alice', 'attempted', { actId: 'a1', seq: 1, format: 2 }),
    entry(4, 'alice', 'done', { actId: 'a1', seq: 2, format: 2, status: 200 }),
  ];
  const prefixBroken: ChainVerdict = { ok: false, entries: 2, kind: 'inserted', line: 1, message: '2 lines before the chain…', headHash: 'ab'.repeat(32), unvouched: { outsideBefore: 3 } };

  it('lines outside the chain: the row says so in its outcome and its detail; the genuine act after them stays as it is', async () => {
    const { rowOf } = await openAudit({ auditEntries: forged, auditVerdict: prefixBroken });
    const row = rowOf('forged-user');
    expect(row.className).toMatch(/is-unvouched/);
    expect(row.textContent).toContain('⚠ Done');
    expect(row.textContent).not.toContain('✓ Done');
    expect(row.textContent).toContain('Not vouched: outside the chain (lines 1 to 2)');
    const alice = rowOf('alice');
    expect(alice.className).not.toMatch(/is-unvouched/);
    expect(alice.textContent).toContain('✓ Done');
  });

  it('an entry inserted mid-chain: its act reads "the chain breaks here", every row after it "after the break", rows before it as they are', async () => {
    const entries = [
      entry(1, 'before', 'attempted', { actId: 'b', seq: 1, format: 2 }),
      entry(2, 'before', 'done', { actId: 'b', seq: 2, format: 2, status: 200 }),
      entry(3, 'victim', 'attempted', { actId: 'v', seq: 3, format: 2 }),
      // The inserted line: an outcome nobody received.
      entry(4, 'victim', 'done', { actId: 'v', seq: 4, format: 2, status: 200 }),
      entry(5, 'after', 'attempted', { actId: 'c', seq: 4, format: 2 }),
      entry(6, 'after', 'refused', { actId: 'c', seq: 5, format: 2, status: 403, errorCode: 'INSUFFICIENT_SCOPE' }),
    ];
    const verdict: ChainVerdict = { ok: false, entries: 3, kind: 'inserted', line: 4, message: 'Line 4 was inserted.', headHash: null, unvouched: { from: 4 } };
    const { rowOf } = await openAudit({ auditEntries: entries, auditVerdict: verdict });
    expect(rowOf('victim').textContent).toContain('Not vouched: the chain breaks at line 4, an entry of this act');
    expect(rowOf('victim').textContent).not.toContain('✓');
    expect(rowOf('after').textContent).toContain('Not vouched: after the chain’s break at line 4');
    expect(rowOf('before').textContent).toContain('✓ Done');
    expect(rowOf('before').className).not.toMatch(/is-unvouched/);
  });

  it('in French', async () => {
    const { rowOf } = await openAudit({ auditEntries: forged, auditVerdict: prefixBroken }, 'fr');
    expect(rowOf('forged-user').textContent).toContain('Non garanti\u00a0: hors de la chaîne (lignes 1 à 2)');
  });
});

describe('a reference recorded before the rule is drawn with its invisible characters visible', () => {
  it('REQ␇bell‮evil reads "REQ⟨U+0007⟩bell⟨RLO⟩evil", never reordered', async () => {
    const { rowOf } = await openAudit({ auditEntries: [entry(1, 'bell-user', 'done', { reference: 'REQ\u0007bell\u202Eevil', status: 200 })] });
    const cell = rowOf('bell-user').querySelector('.audit-grid__cell--reference')!;
    expect(cell.textContent).toContain('REQ⟨U+0007⟩bell⟨RLO⟩evil');
    expect(cell.textContent).not.toContain('\u0007');
    expect(cell.textContent).not.toContain('\u202e');
    expect(cell.getAttribute('title')).toBe('REQ⟨U+0007⟩bell⟨RLO⟩evil');
  });
});

describe('one wording for one fact: a 404 to an erasure', () => {
  const notFound = [entry(1, 'gone-user', 'attempted', { actId: 'g' }), entry(2, 'gone-user', 'refused', { actId: 'g', status: 404, errorCode: 'NOT_FOUND' })];

  it('reads "○ Not found (already erased or never existed)", as in batch results, not "Refused by the service"', async () => {
    const { rowOf } = await openAudit({ auditEntries: notFound });
    const row = rowOf('gone-user');
    expect(row.textContent).toContain(`○ ${en.batch.outcomes['not-found']}`);
    expect(row.textContent).not.toContain('Refused by the service');
  });

  it('in French, the batch results’ words too', async () => {
    const { rowOf } = await openAudit({ auditEntries: notFound }, 'fr');
    expect(rowOf('gone-user').textContent).toContain(`○ ${fr.batch.outcomes['not-found']}`);
  });

  it('a logout answered 404 (the application, not the user) is still a refusal', async () => {
    const { rowOf } = await openAudit({ auditEntries: [entry(1, 'app-404', 'refused', { action: 'logout', status: 404, errorCode: 'APPLICATION_NOT_FOUND' })] });
    expect(rowOf('app-404').textContent).toContain('✗ Refused by the service');
  });
});

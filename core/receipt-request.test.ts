import { describe, expect, it } from 'vitest';
import type { AuditEntry, ChainVerdict } from '../shared/audit';
import { pdfText } from '../tests/support/pdf-text';
import { createReceipt, receiptFileName, type RequestReceiptSubject } from './receipt';

const entry = (more: Partial<AuditEntry>): AuditEntry => ({
  at: '2026-03-05T10:00:00.000+01:00',
  action: 'anonymize',
  outcome: 'attempted',
  uid: 'someone',
  profileId: 'prod',
  profileName: 'Production',
  baseUrl: 'https://debate.example.com',
  operator: 'dpo',
  appVersion: '1.0.0',
  via: 'cli',
  ...more,
});
const act = (actId: string, more: Partial<AuditEntry>) => [entry({ actId, ...more }), entry({ actId, outcome: 'done', status: 200, ...more })];
const cite = (entries: AuditEntry[]) => entries.map((e, index) => ({ entry: e, line: index + 1, hash: String(index % 10).repeat(64) }));
const VERIFIED: ChainVerdict = { ok: true, entries: 12, headHash: 'cd'.repeat(32), chainId: 'chain' };
const options = { locale: 'en', generatedAt: '2026-03-20T10:15:00.000+01:00', generatorVersion: '1.0.0' } as const;
const request: RequestReceiptSubject = {
  id: 'REQ-2026-0007',
  receivedAt: '2026-03-03T09:12:00+01:00',
  deadline: '2026-06-03',
  extended: true,
  closed: { status: 'answered', at: '2026-03-20T10:14:00.000+01:00' },
  actIds: ['linked-act'],
  batchJobIds: ['job-1'],
};

describe('a receipt for a request', () => {
  const trail = cite([
    ...act('linked-act', { uid: 'alice' }),
    ...act('batch-act', { uid: 'bob', via: 'batch', jobId: 'job-1', reference: 'other' }),
    ...act('by-reference', { uid: 'carol', reference: 'req-2026-0007' }),
    ...act('unrelated', { uid: 'dave', reference: 'REQ-2026-0008' }),
    entry({ actId: 'register-change', action: 'request', outcome: 'done', uid: '', register: { requestId: 'REQ-2026-0007', change: 'close', event: 4, sha256: 'e'.repeat(64) } }),
  ]);

  it('covers the linked acts, the batch job’s acts and the acts under its id, and names the request, its dates and the chain head', async () => {
    const receipt = await createReceipt({ entries: trail, verdict: VERIFIED }, { request }, options);
    expect(receipt.acts).toBe(3);
    expect(receipt.headHash).toBe('cd'.repeat(32));
    const text = (await pdfText(receipt.content)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Every act done for the request REQ-2026-0007');
    expect(text).toContain('Request received at 2026-03-03T09:12:00+01:00');
    expect(text).toContain('Deadline to answer extended by two months 2026-06-03');
    expect(text).toContain('Closed answered 2026-03-20T10:14:00.000+01:00');
    for (const uid of ['alice', 'bob', 'carol']) expect(text).toContain(`uid ${uid}`);
    expect(text).not.toContain('dave');
    expect(text).toContain(`Chain head hash ${'cd'.repeat(32)}`);
    expect(receipt.fileName).toBe('privacy-desk-receipt-REQ-2026-0007-20260320-101500.pdf');
  });

  it('a request without any act still gets its receipt, in French too, saying so', async () => {
    const refused: RequestReceiptSubject = { ...request, id: 'REQ-2026-0009', extended: false, closed: { status: 'refused', at: '2026-03-10T08:00:00.000+01:00' }, actIds: [], batchJobIds: [] };
    const receipt = await createReceipt({ entries: trail, verdict: VERIFIED }, { request: refused }, { ...options, locale: 'fr' });
    expect(receipt.acts).toBe(0);
    const text = (await pdfText(receipt.content)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Tous les actes effectués pour la demande REQ-2026-0009');
    expect(text).toContain('Close refusée 2026-03-10T08:00:00.000+01:00');
    expect(text).toContain('Aucun acte sur le service n’est enregistré pour cette demande.');
    expect(text).toContain(`Empreinte de tête de la chaîne ${'cd'.repeat(32)}`);
  });

  it('is named after the request', () => {
    expect(receiptFileName({ request }, '2026-03-20T10:15:09.000+01:00')).toBe('privacy-desk-receipt-REQ-2026-0007-20260320-101509.pdf');
  });
});

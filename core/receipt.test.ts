import { describe, expect, it } from 'vitest';
import type { AuditEntry, ChainVerdict } from '../shared/audit';
import { pdfText } from '../tests/support/pdf-text';
import { createReceipt, receiptFileName } from './receipt';
import { isDrawable } from './receipt-text';

const entry = (more: Partial<AuditEntry>): AuditEntry => ({
  at: '2026-11-22T18:02:11.123+01:00',
  actId: 'act-1',
  action: 'delete',
  outcome: 'attempted',
  uid: 'someone',
  reference: 'REF-1',
  profileId: 'prod',
  profileName: 'Production',
  baseUrl: 'https://debate.example.com',
  operator: 'dpo',
  appVersion: '1.0.0',
  via: 'app',
  ...more,
});
const VERIFIED: ChainVerdict = { ok: true, entries: 2, headHash: 'ab'.repeat(32), chainId: 'chain' };
const options = { locale: 'en', generatedAt: '2026-11-22T18:05:00.000+01:00', generatorVersion: '1.0.0' } as const;
const cite = (entries: AuditEntry[]) => entries.map((e, index) => ({ entry: e, line: index + 1, hash: String(index).repeat(64) }));

describe('createReceipt', () => {
  it('prints every character the font can draw exactly as stored (checked against pdfkit’s font by reading the PDF back)', async () => {
    const codes = [...Array.from({ length: 0x7f - 0x21 }, (_, i) => 0x21 + i), ...Array.from({ length: 0x100 - 0xa1 }, (_, i) => 0xa1 + i), 0x20ac, 0x2026, 0x2019, 0x201c, 0x201d, 0x2013, 0x2014, 0x0152, 0x0153, 0x0160, 0x017d, 0x2122];
    const uid = String.fromCodePoint(...codes.filter((code) => code !== 0xad && code !== 0xb5));
    expect(isDrawable(uid)).toBe(true);
    const receipt = await createReceipt({ entries: cite([entry({ uid }), entry({ uid, outcome: 'done', status: 200 })]), verdict: VERIFIED }, { actId: 'act-1' }, options);
    const { text } = await pdfText(receipt.content);
    // Cut into lines by width only: joined again, the lines give the uid back.
    const uidLines = text.split('\n').filter((line) => !/^[a-zA-Z ]+$/.test(line));
    expect(uidLines.join('')).toContain(uid);
  });

  it('a live environment is said to be LIVE; a missing outcome is said to be unrecorded; an act without a check says not checked', async () => {
    const receipt = await createReceipt({ entries: cite([entry({})]), verdict: VERIFIED }, { reference: 'ref-1' }, options);
    const { text } = await pdfText(receipt.content);
    expect(text).toContain('Production — https://debate.example.com (LIVE service)');
    expect(text).toMatch(/No outcome recorded — the request may have reached the service; check the\s*user/);
    expect(text).toContain('Not checked');
  });

  it('the chain section says each acknowledged finding of the anchor (who, when, why) and a crash proven by its fragment, in French too', async () => {
    const text = { id: 'anchor.removed', params: { count: 2, found: 2, held: { id: 'anchor.held', params: { seq: 4, hash: 'ab4ca7874e25…', at: '2026-11-22T18:00:00.000+01:00' } } } };
    const crash = { id: 'anchor.crash', params: { at: '2026-11-22T17:00:00.000+01:00', file: '/data/audit.jsonl.torn-x' } };
    const verdict: ChainVerdict = {
      ...VERIFIED,
      anchor: { store: 'keychain', state: 'checked', findings: 2, crashes: [crash], acknowledged: [{ finding: '3f9a1c2b7d4e', kind: 'rolled-back', text, at: '2026-11-22T18:04:00.000+01:00', by: 'anna', reason: 'Restored from the backup (INC-88).', line: 3 }] },
    };
    const english = (await pdfText((await createReceipt({ entries: cite([entry({}), entry({ outcome: 'done', status: 200 })]), verdict }, { actId: 'act-1' }, options)).content)).text.replace(/\s+/g, ' ');
    expect(english).toContain('Verified: the chain of 2 entries is intact. 1 finding acknowledged on 2026-11-22T18:04:00.000+01:00 by anna: Restored from the backup (INC-88).');
    expect(english).toContain('A write was cut short by a crash: its fragment, set aside, shows that nothing of it reached the trail');
    const french = (await pdfText((await createReceipt({ entries: cite([entry({}), entry({ outcome: 'done', status: 200 })]), verdict }, { actId: 'act-1' }, { ...options, locale: 'fr' })).content)).text.replace(/\s+/g, ' ');
    expect(french).toContain('1 constat pris en compte le 2026-11-22T18:04:00.000+01:00 par anna : Restored from the backup (INC-88).');
    expect(french).toContain('Une écriture a été interrompue par un plantage');
  });

  it('a 404 to an erasure is said as the batch results and the audit view say it, not as a refusal; a French act where the chain breaks says which entry', async () => {
    const notFound = [entry({}), entry({ outcome: 'refused', status: 404, errorCode: 'NOT_FOUND' })];
    const english = (await pdfText((await createReceipt({ entries: cite(notFound), verdict: VERIFIED }, { actId: 'act-1' }, options)).content)).text.replace(/\s+/g, ' ');
    expect(english).toContain('Outcome Not found — already erased or never existed; nothing was changed');
    expect(english).not.toContain('Refused by the service');
    const broken: ChainVerdict = { ok: false, entries: 1, kind: 'edited', line: 2, message: 'Line 2 was edited.', headHash: null, unvouched: { from: 2 } };
    const french = (await pdfText((await createReceipt({ entries: cite(notFound), verdict: broken }, { actId: 'act-1' }, { ...options, locale: 'fr' })).content)).text.replace(/\s+/g, ' ');
    expect(french).toContain('Introuvable — déjà effacé ou jamais existé ; rien n’a changé');
    expect(french).toContain('La chaîne se rompt à l’entrée de cet acte de la ligne 2 : une entrée a été modifiée. Rien ne garantit ce que cet acte enregistre.');
    expect(french).toContain('ligne 2 La chaîne se rompt ici : une entrée a été modifiée.');
  });

  it('names the file after the reference with only safe characters', () => {
    expect(receiptFileName({ reference: 'GDPR/42 ../x' }, '2026-11-22T18:05:09.000+01:00')).toBe('privacy-desk-receipt-GDPR_42_.._x-20261122-180509.pdf');
    expect(receiptFileName({ reference: '東京' }, '2026-11-22T18:05:09.000+01:00')).toBe('privacy-desk-receipt-receipt-20261122-180509.pdf');
  });

  it('refuses an unknown language', async () => {
    await expect(createReceipt({ entries: cite([entry({})]), verdict: VERIFIED }, { actId: 'act-1' }, { ...options, locale: 'de' as 'en' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

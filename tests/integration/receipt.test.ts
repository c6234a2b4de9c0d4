import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { entryHash } from '../../core/audit-chain';
import { escapedForm } from '../../core/receipt-text';
import { pdfText } from '../support/pdf-text';
import { useSandbox } from './helpers';

const SECRET = 'receipt-test-SECRET-never-in-a-receipt-0123456789abcdef0123456789abcdef0123';
const REFERENCE = 'DPO-2026-117';
// One uid the standard font draws, one it cannot (printed escaped).
const DRAWABLE_UID = 'zoë.müller';
const CJK_UID = '東京ユーザー';
// Fixed: 2026-11-22 18:02:11 UTC.
const NOW = Date.parse('2026-11-22T18:02:11.000Z');

describe('receipts: a PDF for the acts of a reference, read back as text', () => {
  const sandbox = useSandbox({ users: 20, apiSecret: SECRET });
  let dataDir: string;
  let desk: Desk;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-receipt-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: '9.8.7-test', operator: 'dpo-operator', now: () => NOW });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const erase = (action: 'anonymize' | 'delete', uid: string, reference: string) => desk.erase({ profileId: 'temporary', action, uid, confirmUid: uid, reference });

  it('names each uid, the reference, the outcome, request ids, the entries’ hashes and the chain head, in English', async () => {
    const anonymised = await erase('anonymize', DRAWABLE_UID, REFERENCE);
    const deleted = await erase('delete', CJK_UID, REFERENCE);
    await erase('anonymize', 'alice@example.org', 'OTHER-1');
    await expect(erase('delete', 'nobody-here', REFERENCE)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const receipt = await desk.receipt({ reference: REFERENCE }, { locale: 'en' });
    expect(receipt).toMatchObject({ mimeType: 'application/pdf', acts: 3 });
    expect(receipt.fileName).toMatch(/^privacy-desk-receipt-DPO-2026-117-\d{8}-\d{6}\.pdf$/);
    expect(receipt.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { text, title } = await pdfText(receipt.content);
    const reading = await desk.readAudit();
    expect(reading.verdict).toMatchObject({ ok: true, entries: reading.entries.length });
    const headHash = reading.verdict.headHash as string;

    expect(title).toBe('Privacy Desk receipt');
    expect(text).toContain(REFERENCE);
    expect(text).toContain(DRAWABLE_UID);
    // The font cannot draw CJK: the uid is stated exactly in its escaped form, never as look-alike glyphs.
    expect(escapedForm(CJK_UID)).toBe('"\\u6771\\u4eac\\u30e6\\u30fc\\u30b6\\u30fc"');
    expect(text).toContain(escapedForm(CJK_UID));
    expect(text).toContain('nobody-here');
    expect(text).not.toContain('alice@example.org');
    expect(text).toContain('Done — the service confirmed it');
    // A 404 to an erasure: the batch results' words, not a refusal.
    expect(text).toContain('Not found — already erased or never existed; nothing was changed');
    expect(text).toMatch(/Anonymise[\s\S]*Delete[\s\S]*Delete/);
    expect(text).toContain(anonymised.requestId);
    expect(text).toContain(deleted.requestId);
    expect(text).toContain('HTTP status');
    expect(text).toContain('404');
    expect(text).toContain('dpo-operator');
    expect(text).toContain('9.8.7-test');
    expect(text).toContain(`${sandbox.current.url} (local: a sandbox or test service)`);
    expect(text).toContain('2026-11-22T'); // times with their offset
    expect(text).toMatch(/[+-]\d\d:\d\d/);

    // The hash of every entry of these acts (not of the other reference's), and the chain head: the trail's last entry.
    expect(text).toContain(headHash);
    expect(text).toContain(`Verified: the chain of ${reading.entries.length} entries is intact.`);
    const hashOf = ({ line: _line, ...stored }: (typeof reading.entries)[number]) => entryHash(stored);
    expect(hashOf(reading.entries.at(-1)!)).toBe(headHash);
    const ours = reading.entries.filter((entry) => entry.reference === REFERENCE);
    const others = reading.entries.filter((entry) => entry.reference !== REFERENCE);
    expect(ours.length).toBeGreaterThanOrEqual(12); // log out, erase and check, each attempted and answered
    for (const entry of ours) expect(text).toContain(hashOf(entry));
    for (const entry of others.slice(0, -1)) expect(text).not.toContain(hashOf(entry));
    expect(text).toContain('Verified — the uid no longer resolves');

    expect(text).not.toContain(SECRET);
    expect(receipt.content.toString('latin1')).not.toContain(SECRET);
  });

  it('writes the same facts in French', async () => {
    await erase('anonymize', DRAWABLE_UID, REFERENCE);
    await erase('delete', CJK_UID, REFERENCE);
    const receipt = await desk.receipt({ reference: REFERENCE.toLowerCase() }, { locale: 'fr' });
    expect(receipt.acts).toBe(2);
    const { text, title } = await pdfText(receipt.content);
    const { verdict } = await desk.readAudit();
    expect(title).toBe('Reçu Privacy Desk');
    expect(text).toContain('Privacy Desk — reçu des actes d’effacement');
    expect(text).toContain(REFERENCE);
    expect(text).toContain(DRAWABLE_UID);
    expect(text).toContain(escapedForm(CJK_UID));
    expect(text).toContain('Effectuée — le service l’a confirmée');
    expect(text).toContain('Empreinte de tête de la chaîne');
    expect(text).toContain(verdict.headHash as string);
    expect(text).toContain(`Vérifié : la chaîne de ${verdict.entries} entrées est intacte.`);
    expect(text).toContain('Vérifiée — l’uid ne répond plus');
  });

  it('covers one act by its id, and says prominently when the chain is broken', async () => {
    await erase('anonymize', DRAWABLE_UID, REFERENCE);
    await erase('delete', 'team/lead', REFERENCE);
    const reading = await desk.readAudit();
    const actId = reading.entries.find((entry) => entry.uid === 'team/lead')?.actId as string;

    const one = await desk.receipt({ actId }, { locale: 'en' });
    expect(one.acts).toBe(1);
    expect(one.fileName).toMatch(/^privacy-desk-receipt-act-[0-9a-f]{8}-/);
    const single = (await pdfText(one.content)).text;
    expect(single).toContain('team/lead');
    expect(single).toContain(actId);
    expect(single).not.toContain(DRAWABLE_UID);

    // Edit the first entry's uid by hand: the chain no longer verifies, and the receipt says so.
    const path = join(dataDir, 'audit.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace(`"uid":"${DRAWABLE_UID}"`, '"uid":"someone-else"'));
    const broken = (await pdfText((await desk.receipt({ actId }, { locale: 'en' })).content)).text;
    expect(broken).toContain('WARNING: THE AUDIT TRAIL’S CHAIN IS BROKEN');
    expect(broken).toMatch(/An entry was edited, first seen at line 1 of audit\.jsonl/);
  });

  it('refuses a reference no act carries, saying what to do', async () => {
    await erase('anonymize', DRAWABLE_UID, REFERENCE);
    await expect(desk.receipt({ reference: 'NO-SUCH-REF' }, { locale: 'en' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/No act in the audit trail carries the reference “NO-SUCH-REF”/) });
    await expect(desk.receipt({ reference: '  ' }, { locale: 'en' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

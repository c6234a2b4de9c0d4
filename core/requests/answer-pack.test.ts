import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../shared/audit';
import { pdfText } from '../../tests/support/pdf-text';
import { openAuditLog } from '../audit-log';
import { createSessionCredentialStore } from '../credential-store';
import { openLocalRequestStore } from './local-request-store';
import { REGISTER_FILE_NAME } from './register-file';
import type { RequestStore } from './request-store';

const record = (more: Partial<AuditRecord>): AuditRecord => ({
  at: '2026-03-05T10:00:00.000+01:00',
  actId: 'act-1',
  action: 'anonymize',
  outcome: 'attempted',
  uid: 'zoe@example.org',
  profileId: 'prod',
  profileName: 'Production',
  baseUrl: 'https://debate.example.com',
  operator: 'dpo',
  appVersion: 'test',
  via: 'cli',
  ...more,
});

describe('the answer pack of a request', () => {
  let dir: string;
  let store: RequestStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'answer-pack-'));
    const keys = createSessionCredentialStore();
    const clock = Date.parse('2026-03-20T10:15:00+01:00');
    store = openLocalRequestStore({ dataDir: dir, audit: openAuditLog(dir), keyStore: async () => keys, operator: 'dpo', via: 'cli', appVersion: 'test', now: () => clock });
    await store.saveSettings({ timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true, purgeAfterYears: 3 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const audit = () => readFileSync(join(dir, 'audit.jsonl'), 'utf8');

  const answered = async () => {
    const request = await store.create({ receivedAt: '2026-03-03T09:12:00+01:00', actions: ['anonymize'], subjects: [{ uid: 'zoe@example.org' }, { uid: 'zoe2' }], requester: { name: 'Zoé Martin', contact: 'zoe.martin@example.net' } });
    const trail = openAuditLog(dir);
    await trail.append(record({ reference: request.id }));
    await trail.append(record({ reference: request.id, outcome: 'done', status: 200 }));
    await trail.append(record({ actId: 'act-2', uid: 'zoe2' }));
    await trail.append(record({ actId: 'act-2', uid: 'zoe2', outcome: 'done', status: 200, at: '2026-03-06T10:00:00.000+01:00' }));
    await store.apply(request.id, { kind: 'link', actIds: ['act-2'] });
    await store.apply(request.id, { kind: 'close' });
    return request.id;
  };

  it('covers every act of the request, is a register event holding both files’ SHA-256 and an audit entry, and leaves the register verified', async () => {
    const id = await answered();
    const pack = await store.answerPack(id, { language: 'en' });
    expect(pack).toMatchObject({ requestId: id, acts: 2, chainVerified: true, language: 'en', generatedAt: '2026-03-20T10:15:00.000+01:00' });
    expect(pack.fileNames).toEqual({ receipt: `privacy-desk-receipt-${id}-20260320-101500.pdf`, letter: `privacy-desk-answer-${id}-20260320-101500-en.txt` });
    expect(pack.letter.fileName).toBe(pack.fileNames.letter);
    expect(pack.letter.text).toContain('- 2 accounts anonymised from 5 March 2026 to 6 March 2026');
    expect(pack.letter.text).toContain(pack.headHash);
    expect(pack.letter.text).not.toMatch(/Zoé|zoe/);
    const receipt = (await pdfText(pack.receiptPdf)).text.replace(/\s+/g, ' ');
    expect(receipt).toContain(`Every act done for the request ${id}`);
    expect(receipt).toContain('Deadline to answer 2026-04-03');

    const event = JSON.parse(readFileSync(join(dir, REGISTER_FILE_NAME), 'utf8').trimEnd().split('\n').at(-1) as string);
    expect(event.change).toEqual({
      kind: 'pack',
      language: 'en',
      withContact: false,
      acts: 2,
      receiptSha256: createHash('sha256').update(pack.receiptPdf).digest('hex'),
      letterSha256: createHash('sha256').update(pack.letter.text).digest('hex'),
    });
    expect(audit().trimEnd().split('\n').at(-1)).toContain(`"register":{"requestId":"${id}","change":"pack"`);
    expect((await store.get(id)).history.at(-1)).toMatchObject({ change: 'pack', summary: 'answer pack made in en: receipt of 2 acts and letter' });
    expect(await store.check()).toMatchObject({ ok: true });
  });

  it('names the requester only when asked, in French too', async () => {
    const id = await answered();
    const pack = await store.answerPack(id, { language: 'fr', withContact: true });
    expect(pack.namesRequester).toBe(true);
    expect(pack.letter.text).toContain('Zoé Martin\nzoe.martin@example.net');
    expect(pack.letter.text).toContain('Objet\u00a0: votre demande');
    expect((await store.get(id)).history.at(-1)?.summary).toBe('answer pack made in fr: receipt of 2 acts and letter naming the requester');
  });

  it('refuses an open request and an unknown language with the reason, writing nothing', async () => {
    const open = await store.create({ receivedAt: '2026-03-03T09:12:00+01:00', actions: ['delete'], subjects: [{ uid: 'u' }] });
    const before = readFileSync(join(dir, REGISTER_FILE_NAME), 'utf8');
    await expect(store.answerPack(open.id, { language: 'en' })).rejects.toMatchObject({ code: 'INVALID_INPUT', text: { id: 'answerPack.requestOpen', params: { id: open.id, status: 'received' } } });
    await expect(store.answerPack(open.id, { language: 'de' as 'en' })).rejects.toMatchObject({ code: 'INVALID_INPUT', text: { id: 'answerPack.badLanguage' } });
    expect(readFileSync(join(dir, REGISTER_FILE_NAME), 'utf8')).toBe(before);
  });

  it('a refused request without acts gets its pack: the ground in the letter, a receipt saying no act is recorded', async () => {
    const request = await store.create({ receivedAt: '2026-03-03T09:12:00+01:00', actions: ['delete'], subjects: [{ uid: 'u' }] });
    await store.apply(request.id, { kind: 'refuse', ground: 'Needed for a legal claim (Art. 17(3)(e))' });
    const pack = await store.answerPack(request.id, { language: 'en' });
    expect(pack.acts).toBe(0);
    expect(pack.letter.text).toContain('We cannot grant your request, on this ground: Needed for a legal claim (Art. 17(3)(e)).');
    expect((await pdfText(pack.receiptPdf)).text).toContain('No act on the service is recorded for this request.');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { wordInEnglish } from '../../shared/messages';
import type { RequestStore } from './request-store';
import { importMapping } from './import-mapping';
import { readActions, readSpreadsheetDate, readUids } from './import-values';
import { importedReferences, importRequests, previewImport } from './register-import';

const PARIS = 'Europe/Paris';
const NOW = Date.parse('2026-06-01T12:00:00Z');
const problemsOf = (row: { problems: Parameters<typeof wordInEnglish>[0][] }) => row.problems.map((problem) => wordInEnglish(problem));

describe('the column mapping', () => {
  it('is guessed from English headers', () => {
    expect(importMapping(['ID', 'Received at', 'Channel', 'Action', 'UIDs', 'Requester', 'E-mail', 'Notes', 'Status', 'Answered on', 'Extra'])).toEqual({
      reference: 'ID', received: 'Received at', channel: 'Channel', action: 'Action', uid: 'UIDs', requester: 'Requester', contact: 'E-mail', notes: 'Notes', status: 'Status', answered: 'Answered on',
    });
  });

  it('is guessed from French headers, accents, case and punctuation aside', () => {
    expect(importMapping(['Référence', 'Reçu le :', 'Canal', 'Demande', 'Identifiants', 'Demandeur', 'Courriel du demandeur', 'Commentaires', 'Statut actuel', 'Date de réponse', 'Motif du refus'])).toEqual({
      reference: 'Référence', received: 'Reçu le :', channel: 'Canal', action: 'Demande', uid: 'Identifiants', requester: 'Demandeur', contact: 'Courriel du demandeur', notes: 'Commentaires', status: 'Statut actuel', answered: 'Date de réponse', ground: 'Motif du refus',
    });
  });

  it('takes the columns the DPO names, and refuses an unknown field or column', () => {
    expect(importMapping(['Quand', 'Qui', 'Quoi'], { received: 'Quand', uid: 'qui', action: 'Quoi' })).toEqual({ received: 'Quand', uid: 'Qui', action: 'Quoi' });
    expect(() => importMapping(['a'], { colour: 'a' } as never)).toThrow(/colour is not something a request holds/);
    expect(() => importMapping(['a'], { received: 'b' })).toThrow(/There is no column b \(given for received\): the columns are "a"/);
  });
});

describe('cells', () => {
  it('reads dates in common spreadsheet forms, in the register’s time zone when they carry no offset', () => {
    const read = (cell: string) => readSpreadsheetDate(cell, 'received', PARIS);
    expect(read('2026-03-03T09:12:00+01:00')).toEqual({ value: '2026-03-03T09:12:00+01:00' });
    expect(read('2026-03-03T09:12')).toEqual({ value: '2026-03-03T09:12:00.000+01:00' });
    expect(read('2026-03-03')).toEqual({ value: '2026-03-03T00:00:00.000+01:00' });
    expect(read('03/03/2026')).toEqual({ value: '2026-03-03T00:00:00.000+01:00' });
    expect(read('3/7/2026 09:12')).toEqual({ value: '2026-07-03T09:12:00.000+02:00' });
    expect(read('31.01.2026 23h30')).toEqual({ value: '2026-01-31T23:30:00.000+01:00' });
    expect(read('2026-03-29 02:30')).toEqual({ value: '2026-03-29T03:30:00.000+02:00' }); // skipped by summer time
    for (const bad of ['31/02/2026', '03/13/2026', '3/3/26', 'yesterday', '2026-03-03T25:00', '']) expect(read(bad), bad).toHaveProperty('problem');
  });

  it('splits several uids in one cell, and several actions, in English or French', () => {
    expect(readUids('alice bob  carol')).toEqual(['alice', 'bob', 'carol']);
    expect(readUids('jean dupont; marie, jean dupont')).toEqual(['jean dupont', 'marie']);
    expect(readActions('Anonymisation + déconnexion')).toEqual({ value: ['anonymize', 'logout'] });
    expect(readActions('Suppression et effacement')).toEqual({ value: ['delete'] });
    expect(wordInEnglish((readActions('delete, paint') as { problem: never }).problem)).toBe('"paint" is not an action: anonymize, delete or logout (several separated by commas).');
  });
});

const FRENCH_EXCEL = [
  'Référence;Date de réception;Canal;Demande;Identifiants;Demandeur;Statut;Date de réponse',
  'R-1;03/03/2026;courriel;anonymiser;alice bob;Mme X;;',
  'R-2;04/03/2026 10:30;formulaire;supprimer;carol;;répondu;10/03/2026',
  'R-3;31/02/2026;fax;effacer;;;perdu;',
  'R-1;05/03/2026;courrier;supprimer;dave;;;',
  '',
].join('\r\n');

describe('previewImport', () => {
  it('says what each line would become, with each problem on its line', async () => {
    const preview = await previewImport(FRENCH_EXCEL, { timeZone: PARIS, now: NOW });
    expect(preview.separator).toBe('semicolon');
    expect(preview.counts).toEqual({ lines: 4, valid: 2, withProblems: 2 });
    const [first, second, third, fourth] = preview.rows;
    expect(first).toMatchObject({ line: 2, reference: 'R-1', status: 'received', request: { receivedAt: '2026-03-03T00:00:00.000+01:00', channel: 'e-mail', actions: ['anonymize'], subjects: [{ uid: 'alice' }, { uid: 'bob' }], requester: { name: 'Mme X' } } });
    expect(first?.request?.notes).toBe('Imported from a spreadsheet (line 2, reference R-1).');
    expect(second).toMatchObject({ line: 3, status: 'answered', request: { notes: 'Imported from a spreadsheet (line 3, reference R-2).\nAnswered on 2026-03-10, according to the spreadsheet.' } });
    expect(third?.request).toBeUndefined();
    expect(problemsOf(third!)).toEqual([
      'received "31/02/2026" is not a date: write it 2026-03-03, 03/03/2026 or 03/03/2026 09:12 (day first, four-digit year), or ISO 8601 with its offset.',
      'uid is empty.',
      '"fax" is not a channel: e-mail, form, letter, phone or other.',
      '"perdu" is not a status: received, waiting for identity, in progress, answered or refused.',
    ]);
    expect(problemsOf(fourth!)).toEqual(['Reference R-1 is also on line 2: a request is imported once.']);
  });

  it('leaves out a line whose reference the register already holds, as an earlier import noted it', async () => {
    const first = await previewImport(FRENCH_EXCEL, { timeZone: PARIS, now: NOW });
    const alreadyImported = importedReferences([{ id: 'REQ-2026-0007', notes: first.rows[0]?.request?.notes }, { id: 'REQ-2026-0008', notes: 'reference R-2' }]);
    expect(alreadyImported).toEqual(new Map([['R-1', 'REQ-2026-0007']]));
    const again = await previewImport(FRENCH_EXCEL, { timeZone: PARIS, now: NOW, alreadyImported });
    expect(problemsOf(again.rows[0]!)).toEqual(['Reference R-1 was already imported, as REQ-2026-0007.']);
    expect(again.counts.valid).toBe(1);
  });

  it('refuses, before any line, a file without the columns a request needs', async () => {
    await expect(previewImport('Nom,Courriel\nX,x@example.org\n', { timeZone: PARIS })).rejects.toThrow(/No column holds received/);
    await expect(previewImport('\n\n', { timeZone: PARIS })).rejects.toThrow(/The file holds no line/);
    await expect(previewImport('Quand,Qui,Quoi\n2026-01-01,u,delete\n', { timeZone: PARIS, mapping: { received: 'Quand', uid: 'Qui', action: 'Quoi' }, now: NOW })).resolves.toMatchObject({ counts: { valid: 1 } });
  });

  it('reports a date in the future and control characters in a note', async () => {
    const preview = await previewImport('received,action,uid,notes\n2027-01-01,delete,u,\n2026-01-01,delete,u,"a\u001b]0;x\u0007"\n', { timeZone: PARIS, now: NOW });
    expect(problemsOf(preview.rows[0]!)).toEqual(['received 2027-01-01 is in the future.']);
    expect(problemsOf(preview.rows[1]!)).toEqual(['notes holds a control character.']);
  });
});

describe('importRequests', () => {
  const fakeStore = () => {
    let next = 0;
    const store = {
      create: vi.fn(async () => ({ id: `REQ-2026-${String(++next).padStart(4, '0')}`, status: 'received' })),
      apply: vi.fn(async (id: string, change: { kind: string }) => ({ id, status: change.kind === 'close' ? 'answered' : change.kind === 'refuse' ? 'refused' : 'in-progress' })),
    };
    return store as typeof store & RequestStore;
  };

  it('writes nothing before the typed count matches, then creates each valid line with its status', async () => {
    const store = fakeStore();
    const preview = await previewImport(FRENCH_EXCEL, { timeZone: PARIS, now: NOW });
    expect(store.create).not.toHaveBeenCalled();
    for (const typed of ['', 'IMPORT 4', 'import 2', 'yes']) {
      await expect(importRequests(store, preview, typed)).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH', message: 'The import was not confirmed: type IMPORT 2 to import these requests. Nothing was written.' });
    }
    expect(store.create).not.toHaveBeenCalled();
    const outcome = await importRequests(store, preview, ' IMPORT  2 ');
    expect(outcome).toEqual({ imported: [{ line: 2, id: 'REQ-2026-0001', status: 'received' }, { line: 3, id: 'REQ-2026-0002', status: 'answered' }] });
    expect(store.apply).toHaveBeenCalledWith('REQ-2026-0002', { kind: 'close' });
  });

  it('stops at a request the store refuses, the earlier ones kept', async () => {
    const store = fakeStore();
    store.create.mockResolvedValueOnce({ id: 'REQ-2026-0001', status: 'received' } as never).mockRejectedValueOnce(new Error('disk full'));
    const outcome = await importRequests(store, await previewImport(FRENCH_EXCEL, { timeZone: PARIS, now: NOW }), 'IMPORT 2');
    expect(outcome.imported).toHaveLength(1);
    expect(outcome.stopped).toMatchObject({ line: 3 });
  });
});

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli, runBin, startCliFixture, type CliFixture } from './cli-harness';

/** A register kept in French Excel: BOM, CRLF, semicolons, day-first dates, French headers and words. */
const FRENCH_EXCEL = `\uFEFF${[
  'N° de demande;Reçu le;Canal;Demande;Identifiants;Demandeur;Courriel;Statut;Date de réponse;Commentaires',
  'D-101;01/04/2026;courriel;anonymisation;user-000001 user-000002;Mme Confidentielle;mme.c@example.org;en cours;;"Voir le ticket ; relancé"',
  'D-102;06/03/2026 14:05;formulaire;suppression, déconnexion;user-000003;;;;;',
  'D-103;02/03/2026;courrier;suppression;user-000004;;;répondu;20/03/2026;',
  'D-104;31/02/2026;fax;repeindre;;;;perdu;;',
  'D-105;07/03/2026;courriel;suppression;"user\u001b[2K-000005";;;;;',
].join('\r\n')}\r\n`;

describe('privacy-desk requests import', () => {
  let f: CliFixture;
  let file: string;
  beforeAll(async () => {
    f = await startCliFixture(6);
    file = join(mkdtempSync(join(tmpdir(), 'privacy-desk-import-')), 'registre.csv');
    writeFileSync(file, FRENCH_EXCEL);
  });
  afterAll(() => f.close());
  const requests = (args: string[]) => f.cli(['requests', ...args], { connection: false });
  const registerPath = () => join(f.dataDir, 'requests.jsonl');

  it('previews the mapping and each line’s problems, writes nothing before the typed count, then imports with deadlines', async () => {
    expect((await requests(['settings', '--time-zone', 'Europe/Paris', '--country', 'FR'])).code).toBe(0);

    const dry = await requests(['import', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('separator: semicolon; dates without an offset read in Europe/Paris');
    expect(dry.stdout).toMatch(/^ {2}reference {2}← "N° de demande"$/m);
    expect(dry.stdout).toMatch(/^ {2}received {3}← "Reçu le"$/m);
    expect(dry.stdout).toMatch(/^ {2}notes {6}← "Commentaires"$/m);
    expect(dry.stdout).toMatch(/^ {2}line 5: received "31\/02\/2026" is not a date.* "repeindre" is not an action.* uid is empty\./m);
    expect(dry.stdout).toContain('4 requests to import:');
    // The file's escape sequence is shown, never sent to the terminal; the requester is never printed.
    expect(dry.stdout).toContain('"user\\u001b[2K-000005"');
    expect(dry.stdout).not.toContain('\u001b');
    expect(dry.stdout + dry.stderr).not.toMatch(/Confidentielle|mme\.c@/);
    expect(existsSync(registerPath())).toBe(false);

    for (const args of [['import', file], ['import', file, '--yes', 'IMPORT 5'], ['import', file, '--separator', 'pipe'], ['import', file, '--column', 'colour=Canal'], ['import', join(file, 'missing.csv')]]) {
      const refused = await requests(args);
      expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
      expect(existsSync(registerPath()), args.join(' ')).toBe(false);
    }

    const imported = await requests(['import', file, '--yes', 'IMPORT 4', '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result.preview.counts).toEqual({ lines: 5, valid: 4, withProblems: 1 });
    expect(result.imported.map((item: { line: number }) => item.line)).toEqual([2, 3, 4, 6]);

    const listed = JSON.parse((await requests(['list', '--json'])).stdout).requests as Array<{ id: string; deadline: string; status: string; notes: string; channel: string; actions: string[]; subjects: Array<{ uid: string }> }>;
    const byReference = (reference: string) => listed.find((request) => request.notes.includes(`reference ${reference})`));
    // 1 April → 1 May, a public holiday in France → Monday 4 May.
    expect(byReference('D-101')).toMatchObject({ status: 'in-progress', deadline: '2026-05-04', channel: 'e-mail', actions: ['anonymize'], subjects: [{ uid: 'user-000001' }, { uid: 'user-000002' }] });
    expect(byReference('D-101')?.notes).toContain('Voir le ticket ; relancé');
    // 6 March → 6 April, Easter Monday → 7 April.
    expect(byReference('D-102')).toMatchObject({ status: 'received', deadline: '2026-04-07', channel: 'form', actions: ['delete', 'logout'] });
    expect(byReference('D-103')).toMatchObject({ status: 'answered', deadline: '2026-04-02' });
    expect(byReference('D-103')?.notes).toContain('Answered on 2026-03-20, according to the spreadsheet.');
    expect(byReference('D-105')?.subjects).toEqual([{ uid: 'user\u001b[2K-000005' }]);

    const table = await requests(['list', '--text', 'D-10']);
    expect(table.stdout).toMatch(/^REQ-2026-\d{4} +in-progress +2026-05-04 /m);
    expect(table.stdout).not.toContain('\u001b');

    // The same file again: every line already in the register, nothing to import.
    const again = await requests(['import', file, '--yes', 'IMPORT 4']);
    expect(again.code).toBe(2);
    expect(again.stdout).toMatch(/^ {2}line 2: Reference D-101 was already imported, as REQ-2026-\d{4}\.$/m);
    expect(again.stderr).toMatch(/^INVALID_INPUT: No line of the file holds a request that can be imported\. Nothing was written\./m);

    const verified = await f.cli(['audit', 'verify'], { connection: false });
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/^Request register: verified, 6 events/m);
  });

  it('the built binary refuses a file without the columns a request needs, writing nothing (exit 2)', async () => {
    ensureBuiltCli();
    const registerNow = () => (existsSync(registerPath()) ? readFileSync(registerPath(), 'utf8') : '');
    const before = registerNow();
    const bare = join(mkdtempSync(join(tmpdir(), 'privacy-desk-import-')), 'bare.csv');
    writeFileSync(bare, 'Nom,Courriel\nX,x@example.org\n');
    const run = await runBin(f, ['requests', 'import', bare, '--yes', 'IMPORT 1'], { connection: false });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^INVALID_INPUT: No column holds received/m);
    expect(registerNow()).toBe(before);
  });
});

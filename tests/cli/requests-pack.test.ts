import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../support/pdf-text';
import { startCliFixture, type CliFixture } from './cli-harness';
import { sandboxUids } from './batch-harness';

/** Closing a request with its answer pack, end to end against the sandbox through the built CLI. */
describe('privacy-desk requests close --pack / pack', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(6);
  });
  afterAll(() => f.close());
  const requests = (args: string[]) => f.cli(['requests', ...args], { connection: false });
  const folder = (name: string) => {
    const dir = join(f.dataDir, name);
    mkdirSync(dir);
    return dir;
  };

  it('create, erase with --request, close --pack: the receipt of the act and the letter, 0600, audited; in French into another folder', async () => {
    expect((await requests(['settings', '--time-zone', 'Europe/Paris', '--country', 'FR'])).code).toBe(0);
    const [uid] = (await sandboxUids(f)).slice(0, 1) as [string];
    const added = await requests(['add', '--received', new Date(Date.now() - 86_400_000).toISOString(), '--action', 'anonymize', '--uid', uid, '--requester', 'Zoé Confidentielle', '--contact', 'zoe@example.org', '--json']);
    expect(added.code, added.stderr).toBe(0);
    const id = JSON.parse(added.stdout).id as string;

    const open = folder('open');
    const tooEarly = await requests(['pack', id, '--out', open]);
    expect(tooEarly.code).toBe(2);
    expect(tooEarly.stderr).toMatch(new RegExp(`^INVALID_INPUT: Request ${id} is still open \\(received\\)`, 'm'));
    expect(readdirSync(open)).toEqual([]);

    const erased = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--request', id]);
    expect(erased.code, erased.stderr).toBe(0);

    // A folder that is not there stops the close too: nothing written, the request still open.
    const missing = await requests(['close', id, '--pack', join(f.dataDir, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^INVALID_INPUT: .*nowhere is not a folder this account can write into/m);
    expect(JSON.parse((await requests(['show', id, '--json'])).stdout).status).toBe('in-progress');

    const out = folder('pack');
    const closed = await requests(['close', id, '--pack', out, '--json']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(JSON.parse(closed.stdout)).toMatchObject({ id, status: 'answered' });
    expect(closed.stderr).toMatch(new RegExp(`^Answer pack of ${id} written to .*: the receipt of 1 act \\(privacy-desk-receipt-${id}-\\d{8}-\\d{6}\\.pdf\\) and the letter \\(privacy-desk-answer-${id}-\\d{8}-\\d{6}-en\\.txt\\)\\. Head hash of the audit chain: [0-9a-f]{64}\\.`, 'm'));
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(statSync(join(out, file)).mode & 0o777).toBe(0o600);
    const [letterName, receiptName] = files as [string, string];
    const letter = readFileSync(join(out, letterName), 'utf8');
    expect(letter).toContain(`Your request ${id}, received on`);
    expect(letter).toMatch(/- 1 account anonymised on \d{1,2} [A-Z][a-z]+ \d{4}/);
    expect(letter).not.toMatch(/Confidentielle|zoe@/);
    expect(letter).not.toContain(uid);
    const receipt = (await pdfText(readFileSync(join(out, receiptName)))).text.replace(/\s+/g, ' ');
    expect(receipt).toContain(`Every act done for the request ${id}`);
    expect(receipt).toContain(`uid ${uid}`);

    // The pack is a register event with both files' SHA-256, vouched for by the audit trail.
    const sha = (file: string) => createHash('sha256').update(readFileSync(join(out, file))).digest('hex');
    const packEvent = readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line)).at(-1);
    expect(packEvent.change).toMatchObject({ kind: 'pack', language: 'en', withContact: false, acts: 1, receiptSha256: sha(receiptName), letterSha256: sha(letterName) });
    expect(f.auditLines().at(-1)).toMatchObject({ action: 'request', register: { requestId: id, change: 'pack' } });
    const verified = await f.cli(['audit', 'verify'], { connection: false });
    expect(verified.code, verified.stdout).toBe(0);

    // Again in French into another folder. Asked to name the requester, it cannot here: without a keychain the
    // register's key lived only in the session of the command that added the request, and the CLI says so.
    const french = folder('fr');
    const again = await requests(['pack', id, '--out', french, '--language', 'fr', '--with-contact']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('The letter does not name the requester');
    const frenchLetter = readFileSync(join(french, readdirSync(french).find((name) => name.endsWith('-fr.txt')) as string), 'utf8');
    expect(frenchLetter).toContain(`Objet\u00a0: votre demande ${id}`);
    expect(frenchLetter).toContain('- 1 compte anonymisé le ');
    expect(frenchLetter).not.toMatch(/Confidentielle|zoe@/);
  });

  it('bad flags exit 2 before anything is written', async () => {
    const before = readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8');
    const dir = folder('bad');
    for (const args of [
      ['pack', 'REQ-2026-0001', '--out', dir, '--language', 'de'],
      ['pack', 'REQ-2026-0001'],
      ['pack', 'REQ-2099-9999', '--out', dir],
    ]) {
      const run = await requests(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8')).toBe(before);
  });
});

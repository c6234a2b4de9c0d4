import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { runBatchCli, sandboxUids, uidFile } from './batch-harness';

/** The request register from the command line, end to end against the sandbox. */
describe('privacy-desk requests', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(12);
  });
  afterAll(() => f.close());
  const requests = (args: string[]) => f.cli(['requests', ...args], { connection: false });
  const json = (run: { stdout: string }) => JSON.parse(run.stdout);

  it('create, pause, act through a batch, extend (a late extension refused), close, due — all audited and verified', async () => {
    expect((await requests(['settings', '--time-zone', 'Europe/Paris', '--country', 'FR'])).code).toBe(0);
    const received = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const [a, b] = (await sandboxUids(f)).slice(0, 2) as [string, string];
    const added = await requests(['add', '--received', received, '--action', 'anonymize', '--uid', a, '--uid', b, '--requester', 'Zoé Confidentielle', '--contact', 'zoe.confidentielle@example.org', '--json']);
    expect(added.code, added.stderr).toBe(0);
    const request = json(added);
    expect(request).toMatchObject({ id: expect.stringMatching(/^REQ-\d{4}-0001$/), status: 'received', deadline: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), requester: { state: 'hidden' } });

    expect(json(await requests(['pause', request.id, '--json']))).toMatchObject({ status: 'waiting-for-identity', clock: { state: 'paused' } });
    expect(json(await requests(['resume-clock', request.id, '--json']))).toMatchObject({ status: 'in-progress' });

    const batch = await runBatchCli(f, ['batch', 'anonymize', uidFile([a, b]), '--yes', 'ANONYMISE 2', '--request', request.id, '--json']);
    expect(batch.code, batch.stderr).toBe(0);
    const { batchId } = JSON.parse(batch.stdout);
    const shown = json(await requests(['show', request.id, '--json']));
    expect(shown.links.batchJobIds).toEqual([batchId]);
    // The request's id became the items' reference.
    expect(f.auditLines().filter((entry) => entry.reference === request.id && entry.action === 'anonymize').length).toBeGreaterThanOrEqual(2);

    const late = await requests(['extend', request.id, '--reason', 'Numerous accounts', '--person-told', '2099-01-01T10:00:00+01:00']);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/^INVALID_INPUT: Request REQ-\d{4}-0001 cannot be extended: an extension must be decided and the person told within the first period, which ended on \d{4}-\d{2}-\d{2}, and 2099-01-01 is after it\./m);
    const extended = json(await requests(['extend', request.id, '--reason', 'Numerous accounts', '--person-told', new Date().toISOString(), '--json']));
    expect(extended.clock.extendedDeadline).toBe(extended.deadline);

    const due = await requests(['due', '--within', '7d', '--json']);
    expect(due.code).toBe(0);
    expect(json(due).requests).toEqual([]); // extended: months away
    const dueLong = json(await requests(['due', '--within', '120d', '--json']));
    expect(dueLong.requests.map((r: { id: string }) => r.id)).toEqual([request.id]);

    expect(json(await requests(['close', request.id, '--json']))).toMatchObject({ status: 'answered', clock: { state: 'closed' } });
    expect((await requests(['pause', request.id])).stderr).toMatch(/^INVALID_INPUT: Request REQ-\d{4}-0001 is closed \(answered\)/m);

    // No plaintext contact in the register or the trail; the export leaves it out unless asked.
    const files = readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8') + readFileSync(join(f.dataDir, 'audit.jsonl'), 'utf8');
    expect(files).not.toMatch(/Confidentielle|zoe\.confidentielle/);
    const csv = await requests(['export', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain(request.id);
    expect(csv.stdout).not.toContain('Confidentielle');

    const verified = await f.cli(['audit', 'verify'], { connection: false });
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/^Request register: verified, 6 events/m);
  });

  it('audit verify fails, saying where, once a register event is edited', async () => {
    const path = join(f.dataDir, 'requests.jsonl');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    lines[1] = (lines[1] as string).replace('"by":"', '"by":"x');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const verified = await f.cli(['audit', 'verify'], { connection: false });
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/^Request register: NOT verified: Line 2 of the request register was changed after it was written/m);
  });

  it('bad input: exit 2 and nothing written', async () => {
    const before = readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8');
    for (const args of [
      ['add', '--action', 'delete', '--uid', 'u'],
      ['add', '--received', 'yesterday', '--action', 'delete', '--uid', 'u'],
      ['add', '--received', '2026-03-03T09:00:00+01:00', '--action', 'erase', '--uid', 'u'],
      ['add', '--received', '2026-03-03T09:00:00+01:00', '--action', 'delete'],
      ['due', '--within', 'soon'],
      ['settings', '--time-zone', 'Mars/Olympus'],
      ['show', 'REQ-2026-9999'],
    ]) {
      const run = await requests(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(/^INVALID_INPUT: /m);
    }
    const unknown = await f.cli(['users', 'anonymize', 'someone', '--confirm', 'someone', '--request', 'REQ-2026-9999']);
    expect(unknown.code).toBe(2);
    expect(readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8')).toBe(before);
  });
});

import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { erasuresSent, runBatchCli, sandboxUids, uidFile } from './batch-harness';

interface BatchJson {
  batchId: string;
  state: string;
  total: number;
  counts: { done: number; doneBeforeInterruption: number; notFound: number; failed: number; unfinished: number };
  resultsFile: string | null;
}

// eslint-disable-next-line no-control-regex -- what a terminal would obey rather than show
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('privacy-desk batch anonymize|delete (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  let uids: string[];
  /** Each test takes its own users, so none depends on another's erasures. */
  const take = (count: number) => uids.splice(0, count);

  beforeAll(async () => {
    f = await startCliFixture(80);
    uids = await sandboxUids(f);
  });
  afterAll(() => f.close());

  it('deletes 20 uids with --yes "DELETE 20": exit 0, every user deleted, counts and a 0600 results file', async () => {
    const twenty = take(20);
    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'delete', uidFile(twenty), '--yes', 'DELETE 20', '--reference', 'GDPR-7']);
    expect(stderr).toMatch(/Batch \d{8}-\d{6}-[0-9a-f]{6}: 20 items to go/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/valid uids: +20\n/);
    expect(stdout).toMatch(/operation: +DELETE: deletes each user and all their contributions/);
    expect(stdout).toContain(`first:        “${twenty[0]}”`);
    expect(stdout).toMatch(/: finished\.\n {2}done: +20\n {2}not found: +0 .*\n {2}failed: +0\n {2}unfinished: +0\n/);
    for (const uid of twenty) expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
    const resultsFile = /Results \(one row per item\): (.+)\n/.exec(stdout)?.[1] ?? '';
    expect(statSync(resultsFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(resultsFile, 'utf8').trim().split('\n')).toHaveLength(21);
  });

  it('a wrong --yes phrase: exit 2, nothing sent, no job', async () => {
    const three = take(3);
    const before = f.sandbox.stats().apiRequests;
    const jobsBefore = await listJobs();
    const { code, stderr } = await runBatchCli(f, ['batch', 'delete', uidFile(three), '--yes', 'DELETE 4']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^CONFIRMATION_MISMATCH: --yes "DELETE 4" does not confirm this batch: to confirm deleting these 3 users, give --yes "DELETE 3"\. Nothing was sent\.$/m);
    expect(f.sandbox.stats().apiRequests).toBe(before);
    expect(await listJobs()).toEqual(jobsBefore);
    for (const uid of three) expect((await f.sandboxUser(uid)).body?.state).toBe('active');
  });

  it('no terminal and no --yes: exit 2, says to pass --yes with the phrase, nothing sent', async () => {
    const two = take(2);
    const before = f.sandbox.stats().apiRequests;
    const { code, stdout, stderr } = await f.cli(['batch', 'anonymise', uidFile(two)]);
    expect(code).toBe(2);
    expect(stdout).toMatch(/operation: +ANONYMISE: erases each user’s name, e-mail, uid and image; keeps their contributions/);
    expect(stderr).toMatch(/^INVALID_INPUT: No terminal to ask for the confirmation on: run .* again with --yes "ANONYMISE 2" to confirm anonymising these 2 users\. Nothing was sent\.$/m);
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });

  it('reads "-" from standard input, which then cannot answer the confirmation: --yes is needed', async () => {
    const two = take(2);
    const refused = await runBatchCli(f, ['batch', 'delete', '-'], { stdin: `${two.join('\n')}\n` });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Standard input held the list, so it cannot answer the confirmation: .*--yes "DELETE 2"/);

    const { code, stdout } = await runBatchCli(f, ['batch', 'delete', '-', '--yes', 'DELETE 2', '--json'], { stdin: `${two.join('\r\n')}\r\n` });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ state: 'finished', total: 2, counts: { done: 2, unfinished: 0 } });
    for (const uid of two) expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
  });

  it('--dry-run prints the preview and sends nothing', async () => {
    const five = take(5);
    const before = f.sandbox.stats();
    const { code, stdout } = await f.cli(['batch', 'delete', uidFile(five), '--dry-run', '--logout-first']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/sessions: +each user’s sessions are ended first/);
    expect(stdout).toContain('Dry run: nothing was sent. To run it, confirm with DELETE 5');
    // Five uids: the first three and the last two, each once.
    expect(stdout).toContain(`first:        ${five.slice(0, 3).map((uid) => `“${uid}”`).join(', ')}\n`);
    expect(stdout).toContain(`last:         ${five.slice(3).map((uid) => `“${uid}”`).join(', ')}\n`);
    expect(f.sandbox.stats()).toEqual(before);

    const json = await f.cli(['batch', 'delete', uidFile([...five, five[0]!, '..']), '--dry-run', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, format: 'list', items: 5, duplicates: 1, invalidCount: 1, invalid: [{ line: 7 }], edgeSpaces: { count: 0, lines: [] }, confirmation: 'DELETE 5' });
    expect(json.stderr).toContain('Dry run: nothing was sent.');
    expect(f.sandbox.stats()).toEqual(before);
  });

  it('--json prints one JSON document on stdout with the job id, counts and results file; the rest goes to stderr', async () => {
    const three = take(3);
    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'anonymize', uidFile(three), '--yes', 'ANONYMIZE 3', '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as BatchJson;
    expect(summary).toEqual({
      batchId: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/),
      state: 'finished',
      total: 3,
      counts: { done: 3, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 },
      resultsFile: expect.stringContaining(summary.batchId),
    });
    expect(stderr).toMatch(/valid uids: +3/);
    for (const uid of three) expect((await f.sandboxUser(uid)).body?.state).toBe('anonymized');
  });

  it('lists invalid lines with their line numbers and reasons (the first 20, then "and N more"), and refuses a list with no valid uid', async () => {
    const invalid = ['.', 'ctrl\u0001char', ...Array.from({ length: 21 }, () => '..')];
    const { code, stdout, stderr } = await f.cli(['batch', 'delete', uidFile(['', ...invalid]), '--dry-run']);
    expect(code).toBe(2);
    expect(stdout).toMatch(/invalid lines: +23 \(left out: nothing is sent for them\)/);
    expect(stdout).toMatch(/\n {4}line 2: [^\n]+\n {4}line 3: [^\n]+control[^\n]*\n/i);
    expect(stdout).toContain('    and 3 more\n');
    expect(stderr).toMatch(/^INVALID_INPUT: No valid uid in .*: nothing to send\./m);
  });

  it('a uid that does not exist ends as "not found", and that is exit 0', async () => {
    const one = take(1);
    const { code, stdout } = await runBatchCli(f, ['batch', 'delete', uidFile([...one, 'nobody-has-this-uid']), '--yes', 'DELETE 2', '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as BatchJson).counts).toEqual({ done: 1, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 0 });
  });

  it('--check looks the uids up first and names the missing ones (read-only)', async () => {
    const two = take(2);
    const before = f.sandbox.requestLog(two[0]!).length;
    const { code, stdout } = await f.cli(['batch', 'delete', uidFile([...two, 'ghost-1']), '--check', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Checked against the service \(\d+ users read\): 2 of 3 uids exist, 1 do not\.\n.*\n {4}“ghost-1”\n/);
    expect(f.sandbox.requestLog(two[0]!)).toHaveLength(before);
  });

  it('the preview says which column the uids came from, names uids with edge spaces, and a reference column that covers every item', async () => {
    const [a, b, c] = take(3);
    const csv = uidFile(['ticket,user id', `T-1,${a}`, `T-2, ${b}`, `T-3,${c} `], 'requests.csv');
    const { code, stdout } = await f.cli(['batch', 'delete', csv, '--reference-column', 'ticket', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('  uids read from:      column “user id” (index 1)\n');
    expect(stdout).toContain('  2 uids begin or end with spaces and are kept exactly (lines 3, 4): check they match the request.\n');
    expect(stdout).toMatch(/reference: +each item carries its own \(from the reference column\)\n/);
    expect(stdout).not.toContain('the others none');
    const json = await f.cli(['batch', 'delete', csv, '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'csv', uidColumn: { index: 1, name: 'user id' }, edgeSpaces: { count: 2, lines: [3, 4] } });
    // Not looked up: one line on what --check would add.
    expect(stdout).toMatch(/^Not looked up \(add --check\): --check shows which uids exist, .*"done before an interruption"\.$/m);
  });

  it('--check on a terminal: its progress line is cleared once the walk ends, and the hint to add --check is not given', async () => {
    const two = take(2);
    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'delete', uidFile(two), '--check', '--dry-run'], { tty: true });
    expect(code).toBe(0);
    // eslint-disable-next-line no-control-regex -- the terminal's escape codes are what is checked
    expect(stderr).toMatch(/checking the uids: page \d+[^\n]*\r\u001b\[2K/);
    expect(stderr).not.toMatch(/checking the uids[^\n]*\n/);
    expect(stdout).not.toContain('Not looked up');
  });

  it('shows hostile uids (bidi overrides, escapes) as escapes in the preview', async () => {
    const { code, stdout } = await f.cli(['batch', 'delete', uidFile(['evil\u202egnp.exe', 'x\u2066y']), '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('“evil\\u202egnp.exe”');
    expect(stdout.replace(/\n/g, '')).not.toMatch(OBEYED);
  });

  it('batch list shows the jobs with their state and counts; batch results prints one CSV row per item', async () => {
    const { code, stdout } = await f.cli(['batch', 'list'], { connection: false });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^JOB +CREATED \(UTC\) +OPERATION +PROFILE +SOURCE +TOTAL +STATE +DONE +NOT FOUND +FAILED +UNFINISHED\n/);
    expect(stdout).toMatch(/\d{8}-\d{6}-[0-9a-f]{6} .* delete .* 20 +finished +20 +0 +0 +0\n/);
    const jobs = await listJobs();
    const twenty = jobs.find((job) => job.total === 20)!;
    const results = await f.cli(['batch', 'results', twenty.batchId], { connection: false });
    expect(results.code).toBe(0);
    expect(results.stdout.trim().split('\n')).toHaveLength(21);
    const json = await f.cli(['batch', 'results', twenty.batchId, '--format', 'json'], { connection: false });
    expect(json.code).toBe(0);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('"outcome":"done"');
  });

  it('a job id that is not one: exit 2 with a clear message', async () => {
    const { code, stderr } = await f.cli(['batch', 'results', 'not-a-job'], { connection: false });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: "not-a-job" is not a batch job id/);
  });

  it('Ctrl-C cancels: the items in flight finish, nothing more is sent, exit 1 with how to resume; batch resume finishes only the rest', async () => {
    const ten = take(10);
    const cancelled = await runBatchCli(f, ['batch', 'delete', uidFile(ten), '--yes', 'DELETE 10', '--concurrency', '1', '--json'], { interruptWhen: /items to go/ });
    expect(cancelled.interrupted).toBe(true);
    expect(cancelled.code).toBe(1);
    const summary = JSON.parse(cancelled.stdout) as BatchJson;
    expect(summary.state).toBe('cancelled');
    expect(summary.counts.unfinished).toBeGreaterThan(0);
    expect(cancelled.stderr).toContain(`run privacy-desk batch resume ${summary.batchId} --base-url ${f.sandbox.url} --app `);
    const sentBefore = ten.map((uid) => erasuresSent(f, uid));

    const unfinished = summary.counts.unfinished;
    const resumed = await runBatchCli(f, ['batch', 'resume', '--yes', `DELETE ${unfinished}`, '--json']);
    expect(resumed.stdout).not.toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ batchId: summary.batchId, state: 'finished', counts: { unfinished: 0, failed: 0 } });
    for (const uid of ten) expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
    // What was done before the cancel was not sent again.
    ten.forEach((uid, i) => {
      if (sentBefore[i]! > 0) expect(erasuresSent(f, uid)).toBe(sentBefore[i]);
    });
  });

  it('on a terminal it asks for the typed phrase and draws a progress bar on stderr', async () => {
    const two = take(2);
    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'delete', uidFile(two)], { tty: true, stdin: 'DELETE 2\n' });
    expect(stderr).toContain('Type DELETE 2 to confirm deleting these 2 users');
    expect(code).toBe(0);
    expect(stderr).toMatch(/100% \| done 2 \| failed 0 \| not found 0 \| remaining 0/);
    // The run's announcement has a line of its own: nothing of the prompt or the bar before it.
    expect(stderr).toMatch(/(^|\n)Batch \d{8}-\d{6}-[0-9a-f]{6}: 2 items to go\./);
    expect(stdout).toMatch(/done: +2\n/);
  });

  it('on a terminal, an answer that is not the phrase stops before anything is sent', async () => {
    const two = take(2);
    const before = f.sandbox.stats().apiRequests;
    const { code, stderr } = await runBatchCli(f, ['batch', 'delete', uidFile(two)], { tty: true, stdin: 'yes\n' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/CONFIRMATION_MISMATCH: "yes" is not "DELETE 2"\. Not confirmed: nothing was sent\./);
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });

  it('Ctrl-C on a terminal: the bar ends, the message gets its own line, the bar goes on below it until the run stops', async () => {
    const six = take(6);
    const { code, stdout, stderr, interrupted } = await runBatchCli(f, ['batch', 'delete', uidFile(six), '--yes', 'DELETE 6', '--concurrency', '1'], { tty: true, interruptWhen: /\d+% \| done/ });
    expect(interrupted).toBe(true);
    expect(code).toBe(1);
    // cli-progress puts the cursor back where its bar started (ESC 8); the bar's line is cleared before the message.
    expect(stderr).toContain('\u001b8\u001b[1G\u001b[2KCancelling: the items in flight finish, nothing more is sent.');
    expect(stdout).toContain('cancelled (Ctrl-C)');
  });

  async function listJobs(): Promise<Array<{ batchId: string; total: number; state: string }>> {
    const { code, stdout } = await f.cli(['batch', 'list', '--json'], { connection: false });
    expect(code).toBe(0);
    return (JSON.parse(stdout) as { jobs: Array<{ batchId: string; total: number; state: string }> }).jobs;
  }
});

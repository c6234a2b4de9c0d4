import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobPaths } from './job-files';
import { listJobs } from './job-list';
import { resumeJob } from './journal';

const journalModule = resolve(import.meta.dirname, 'journal.ts');

/**
 * Another process runs a job (as the console does): it answers "pause" and "resume" on its standard input
 * by pausing its run, and prints its job id, then what it did.
 */
const RUNNER = `
  import { createInterface } from 'node:readline';
  import { createJob } from ${JSON.stringify(journalModule)};
  const journal = await createJob(process.argv[1], { action: 'delete', profileId: 'p', profileName: 'P', baseUrl: 'http://x', logoutFirst: false, total: 2, source: '-' });
  await journal.appendItems([{ line: 1, uid: 'a' }, { line: 2, uid: 'b' }]);
  await journal.finishItems();
  console.log(journal.jobId);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'stop') journal.setStopping();
    else if (line === 'close') await journal.close();
    else journal.setPaused(line === 'pause');
    console.log(line);
  }
`;

describe('a job run by another process, as this one reads it', () => {
  let dir: string;
  let child: ChildProcessWithoutNullStreams | undefined;
  let output = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-runner-'));
    output = '';
  });
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Resolves with the child's output once it holds `text` (rejects if the child ends first). */
  async function printed(text: string): Promise<string> {
    while (!output.includes(text)) {
      if (!child || child.exitCode !== null) throw new Error(`the runner ended: ${output}`);
      await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
    }
    return output;
  }

  async function stateOf(jobId: string) {
    return (await listJobs(dir)).jobs.find((job) => job.jobId === jobId)?.state;
  }

  it('says paused while its operator has it paused, running again once resumed, and not running once it is killed', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUNNER, dir]);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const jobId = (await printed('\n')).split('\n')[0]!;
    expect(await stateOf(jobId)).toBe('running');

    child.stdin.write('pause\n');
    await printed('pause\n');
    expect(await stateOf(jobId)).toBe('paused');
    child.stdin.write('resume\n');
    await printed('resume\n');
    expect(await stateOf(jobId)).toBe('running');

    // Killed while paused: its lock is still fresh, but its process is gone — nobody runs the job.
    child.stdin.write('pause\n');
    await printed('resume\npause\n');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(await stateOf(jobId)).toBe('unfinished');

    // And it can be resumed now, not refused as "run by another process": the ended holder's lock is taken over at
    // once. (Its last refresh is moved an hour ahead, so only its dead pid can free it, never its going stale.)
    const freshForAnHour = new Date(Date.now() + 3_600_000);
    utimesSync(jobPaths(dir, jobId).runLock, freshForAnHour, freshForAnHour);
    const resumed = await resumeJob(dir, jobId);
    expect(await stateOf(jobId)).toBe('running');
    await resumed.close();
    expect(await stateOf(jobId)).toBe('unfinished');
  }, 30_000);

  it('says stopping once its operator cancelled it (the items in flight finishing), paused or not, and not running once it let go', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUNNER, dir]);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const jobId = (await printed('\n')).split('\n')[0]!;
    child.stdin.write('pause\n');
    await printed('pause\n');
    child.stdin.write('stop\n');
    await printed('stop\n');
    expect(await stateOf(jobId)).toBe('stopping');
    // A pause or resume asked while it stops changes nothing: it is stopping.
    child.stdin.write('resume\n');
    await printed('resume\n');
    expect(await stateOf(jobId)).toBe('stopping');
    child.stdin.write('close\n');
    await printed('close\n');
    expect(await stateOf(jobId)).toBe('unfinished');
  }, 30_000);
});

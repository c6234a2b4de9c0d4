import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeCommand } from '../../cli/batch-help';
import { TEMPORARY_PROFILE_ID } from '../../core/desk';
import { startCliFixture, type CliFixture } from './cli-harness';
import { runBatchCli, uidFile } from './batch-harness';

/** The arguments a POSIX shell reads from a command line (dash here: what `sh` is on Debian). */
function shellWords(commandLine: string): string[] {
  return execFileSync('sh', ['-c', `set -- ${commandLine}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describe('privacy-desk batch: the smaller things a new user met', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(40);
  });
  afterAll(() => f.close());

  it('keys the service refuses are said before the "About to run this batch — irreversible" preview, not after it', async () => {
    const list = uidFile(['user-000020']);
    const { code, stdout, stderr } = await f.cli(['batch', 'delete', list, '--yes', 'DELETE 1'], { env: { PRIVACY_DESK_API_SECRET: 'not-the-secret' } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^INVALID_CREDENTIALS: The API key or secret key was refused/m);
    expect(stdout).not.toContain('About to run this batch');
    expect(f.sandbox.requestLog('user-000020')).toEqual([]);
    expect((await f.sandboxUser('user-000020')).body?.state).toBe('active');
  });

  it('the suggested resume command quotes what a shell would expand: an IPv6 address in brackets, an application name with spaces', () => {
    const command = resumeCommand('20261124-120000-a1b2c3', { id: TEMPORARY_PROFILE_ID, baseUrl: 'https://[::ffff:7f00:1]:4656', applicationName: 'debate app' });
    expect(command).toBe("privacy-desk batch resume 20261124-120000-a1b2c3 --base-url 'https://[::ffff:7f00:1]:4656' --app 'debate app'");
    expect(shellWords(command)).toEqual(['privacy-desk', 'batch', 'resume', '20261124-120000-a1b2c3', '--base-url', 'https://[::ffff:7f00:1]:4656', '--app', 'debate app']);
    // zsh expands a word that starts with "=", and every shell a "*" or a "$": quoted too; a plain word stays as it is.
    for (const app of ['=cmd', 'a*b', '$HOME', "o'brien", 'sandbox-app']) {
      const words = shellWords(resumeCommand('20261124-120000-a1b2c3', { id: TEMPORARY_PROFILE_ID, baseUrl: 'http://127.0.0.1:4600', applicationName: app }));
      expect(words.at(-1)).toBe(app);
    }
    expect(resumeCommand('20261124-120000-a1b2c3', { id: TEMPORARY_PROFILE_ID, baseUrl: 'http://127.0.0.1:4600', applicationName: 'sandbox-app' })).toBe(
      'privacy-desk batch resume 20261124-120000-a1b2c3 --base-url http://127.0.0.1:4600 --app sandbox-app',
    );
  });

  it('batch results says which items were sent trimmed, with the uid as pasted drawn visibly', async () => {
    const run = await runBatchCli(f, ['batch', 'delete', uidFile([' user-000022 ', 'user-000023\u200b', 'user-000025']), '--check', '--use-trimmed', '--yes', 'DELETE 3', '--no-logout-first', '--json']);
    expect(run.code).toBe(0);
    const { batchId } = JSON.parse(run.stdout) as { batchId: string };
    const { code, stdout, stderr } = await f.cli(['batch', 'results', batchId], { connection: false });
    expect(code).toBe(0);
    expect(stdout.split('\r\n')[0]).toBe('line,uid,reference,outcome,status,request_id,reason,at,pasted_uid');
    expect(stderr).toContain('2 items were sent in their trimmed form, by the operator’s choice (column pasted_uid: the uid as pasted):\n');
    expect(stderr).toContain('  line 1: “user-000022”, pasted “ user-000022 ”\n');
    expect(stderr).toContain('  line 2: “user-000023”, pasted “user-000023\\u200b”\n');
  });
});

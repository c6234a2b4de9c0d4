import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk } from '../../core/desk';
import { startCliFixture, type CliFixture } from './cli-harness';

/** A "service" that answers 200 {"success":true} to everything: one that fails to refuse broken logout tokens. */
async function startLenientService(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the CLI as a new user meets it', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(12);
  });
  afterAll(() => f.close());

  async function someUid(index: number): Promise<string> {
    const { stdout } = await f.cli(['users', 'list', '--json']);
    return (JSON.parse(stdout) as { users: Array<{ uid: string }> }).users[index]!.uid;
  }

  it('accepts "users anonymise", the spelling of the console and the README', async () => {
    const uid = await someUid(0);
    const { code, stdout } = await f.cli(['users', 'anonymise', uid, '--confirm', uid]);
    expect(code).toBe(0);
    expect(stdout).toContain(`user “${uid}”`);
    expect((await f.sandboxUser(uid)).body?.state).toBe('anonymized');
  });

  it('logout --negative: a refusal is the expected verdict (exit 0)', async () => {
    const human = await f.cli(['logout', 'alice@example.org', '--negative', 'wrong-secret']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Verdict: +refused as expected — the service refused the broken token \(wrong-secret\)\.$/m);
    expect(human.stderr).toBe('');
    const json = await f.cli(['logout', 'alice@example.org', '--negative', 'expired', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ outcome: 'refused', verdict: 'refused-as-expected' });
  });

  it('logout --negative: a service that accepts the broken token is the failure (exit 1)', async () => {
    const lenient = await startLenientService();
    try {
      const connection = ['--base-url', lenient.url, '--app', 'sandbox-app'];
      const human = await f.cli(['logout', 'alice@example.org', '--negative', 'alg-none', ...connection], { connection: false });
      expect(human.code).toBe(1);
      expect(human.stderr).toContain('Verdict: ACCEPTED — the service did not refuse a broken token (alg-none)');
      expect(human.stdout).not.toMatch(/refused as expected/);
      const json = await f.cli(['logout', 'alice@example.org', '--negative', 'alg-none', '--json', ...connection], { connection: false });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ outcome: 'done', verdict: 'accepted' });
    } finally {
      await lenient.close();
    }
  });

  it('logout of a uid nobody has: says a 200 proves nothing about the uid', async () => {
    expect((await f.sandboxUser('no-such-user')).status).toBe(404);
    const { code, stdout } = await f.cli(['logout', 'no-such-user']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Status: +200 \(accepted — the service answers this whether or not a user has this uid/m);
    expect(stdout).not.toMatch(/the user’s sessions are ended/);
  });

  it('human-mode logout keeps the signed token off stdout unless --show-token (or --json) asks for it', async () => {
    const plain = await f.cli(['logout', 'bob@example.org']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^Token: +\(not printed; add --show-token or --json to see it\)$/m);
    expect(plain.stdout).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
    const shown = await f.cli(['logout', 'bob@example.org', '--show-token']);
    expect(shown.stdout).toMatch(/^Token: +eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+$/m);
    const json = await f.cli(['logout', 'bob@example.org', '--json']);
    expect((JSON.parse(json.stdout) as { token: string }).token).toMatch(/^eyJ/);
  });

  it('token verify names each problem once, and says it sent nothing', async () => {
    const { stdout } = await f.cli(['logout', 'carol@example.org', '--json']);
    const [header, payload, signature] = (JSON.parse(stdout) as { token: string }).token.split('.');
    const tampered = `${header}.${payload}.${signature!.slice(0, -4)}${signature!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const before = f.sandbox.stats().apiRequests;
    const bad = await f.cli(['token', 'verify', tampered]);
    expect(bad.code).toBe(1);
    const output = bad.stdout + bad.stderr;
    expect(output.match(/The signature does not match/g)).toHaveLength(1);
    expect(bad.stderr).toMatch(/^TOKEN_INVALID: The token is not valid \(1 problem, listed on stdout\); checked locally, nothing was sent to the service\.\n$/);
    expect(f.sandbox.stats().apiRequests).toBe(before);
    const help = await f.cli(['token', 'verify', '--help'], { connection: false });
    expect(help.stdout).toMatch(/Exit codes: 0 the token is valid; 1 it is not/);
    expect(help.stdout).toContain('nothing is sent to the service');
  });

  it('exit codes: on the top-level help and the acts, not repeated on every subcommand', async () => {
    const top = await f.cli(['--help'], { connection: false });
    expect(top.stdout).toContain('Exit codes:');
    expect(top.stdout).toMatch(/token verify: the token is not valid — checked locally/);
    for (const act of [['users', 'delete'], ['users', 'anonymize'], ['logout']]) {
      expect((await f.cli([...act, '--help'], { connection: false })).stdout, act.join(' ')).toContain('Exit codes:');
    }
    for (const other of [['users', 'list'], ['profiles', 'list'], ['audit', 'list'], ['users']]) {
      expect((await f.cli([...other, '--help'], { connection: false })).stdout, other.join(' ')).not.toContain('Exit codes:');
    }
  });

  it('--page 0 says "1 or more", not a sixteen-digit bound', async () => {
    const { code, stderr } = await f.cli(['users', 'list', '--page', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: --page must be 1 or more \(got 0\)\./);
  });

  it('with --base-url, refused keys point at the environment variables, not at a profile', async () => {
    const { code, stderr } = await f.cli(['users', 'list'], { env: { PRIVACY_DESK_API_SECRET: 'not-the-secret' } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^INVALID_CREDENTIALS: /);
    expect(stderr).not.toMatch(/in the profile|profile’s/);
    expect(stderr).toContain('the service address is the --base-url value, the application name the --app value, and the keys come from PRIVACY_DESK_API_KEY and PRIVACY_DESK_API_SECRET');
    const wrongApp = await f.cli(['logout', 'alice@example.org', '--base-url', f.sandbox.url, '--app', 'no-such-app'], { connection: false });
    expect(wrongApp.stderr).toMatch(/^APPLICATION_NOT_FOUND: /);
    expect(wrongApp.stderr).not.toMatch(/in the profile|profile’s/);
    expect(wrongApp.stderr).toContain('--app value');
  });

  it('without a keychain, says what a CLI user can do rather than "kept for this session only"', async () => {
    const { code, stderr } = await f.cli(['profiles', 'add', '--name', 'Sandbox', '--base-url', f.sandbox.url, '--app', 'sandbox-app'], { connection: false });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^KEYCHAIN_UNAVAILABLE: /);
    expect(stderr).not.toMatch(/this session/);
    expect(stderr).toContain('Without the keychain the CLI keeps no credentials between commands: use --base-url and --app with PRIVACY_DESK_API_KEY and PRIVACY_DESK_API_SECRET.');
  });

  it('a saved profile whose credentials went with the app\'s keychain-less session: no "session" advice the CLI cannot follow', async () => {
    // The console saved it without a keychain: its credentials lived in that session's memory only.
    const app = createDesk({ dataDir: f.dataDir, credentialStore: createSessionCredentialStore(), via: 'app' });
    await app.saveProfile({ name: 'Remembered', baseUrl: f.sandbox.url, applicationName: 'sandbox-app', apiKey: f.sandbox.credentials.apiKey, apiSecret: f.sandbox.credentials.apiSecret });
    const { code, stderr } = await f.cli(['users', 'list', '--profile', 'Remembered'], { connection: false });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^KEYCHAIN_UNAVAILABLE: The API key and secret of "Remembered" cannot be read: /);
    expect(stderr).not.toMatch(/this session|the session/);
    expect(stderr).toContain('use --base-url and --app with PRIVACY_DESK_API_KEY and PRIVACY_DESK_API_SECRET');
  });
});

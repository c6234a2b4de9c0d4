import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli';
import type { AuditLog } from '../../core/audit-log';
import { openGatedConnection } from '../../core/service/erasure-gate';
import type { AuditEntry } from '../../shared/audit';
import type { Outcome } from '../../shared/errors';
import { failure, leaks } from './helpers';
import { ESCAPE_USER, HOSTILE_CREDENTIALS, startForeignServer, startHostileService, type HostileMode, type HostileServer } from './hostile-service';

/** Short on purpose: a silent service must end the call quickly (the list's whole budget is twice this). */
/** A silent service meets this timeout at once; a service that answers gets plenty, so a busy machine never turns its answer into a TIMEOUT. */
const SILENT_TIMEOUT_MS = 300;
const ANSWER_TIMEOUT_MS = 10_000;
// Anything a terminal would obey instead of print, newlines aside.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('a hostile service on loopback', () => {
  let mode: HostileMode = 'html';
  let foreign: HostileServer;
  let hostile: HostileServer;
  beforeAll(async () => {
    foreign = await startForeignServer();
    hostile = await startHostileService(() => mode, foreign.url);
  });
  afterAll(async () => {
    await hostile.close();
    await foreign.close();
  });
  beforeEach(() => {
    hostile.received.length = 0;
    foreign.received.length = 0;
  });
  afterEach(() => {
    // Redirects are never followed: nothing (no credential, no token, no body) ever reaches the other origin.
    expect(foreign.received).toEqual([]);
  });

  function connect() {
    const entries: AuditEntry[] = [];
    const audit: AuditLog = { path: '(memory)', append: async (entry) => void entries.push(entry), list: async () => [...entries].reverse() } as AuditLog;
    const connection = openGatedConnection(
      { profile: { id: 'hostile', name: 'Hostile', baseUrl: hostile.url, applicationName: 'app' }, credentials: HOSTILE_CREDENTIALS, timeoutMs: mode === 'silent' ? SILENT_TIMEOUT_MS : ANSWER_TIMEOUT_MS, sleep: async () => {} },
      { audit, via: 'cli', operator: 'tester', appVersion: 'test' },
    );
    return { ...connection, entries };
  }

  const secrets = () => [HOSTILE_CREDENTIALS.apiSecret, ...hostile.received.map((r) => r.authorization?.replace(/^Bearer /, '') ?? '')].filter((s) => s.length > 8);

  const listCases: Array<[HostileMode, string, RegExp]> = [
    ['html', 'UNEXPECTED_RESPONSE', /could not be read: it is not JSON/],
    ['invalid-json', 'UNEXPECTED_RESPONSE', /could not be read: it is not JSON/],
    ['huge', 'UNEXPECTED_RESPONSE', /larger than 2 MB.*it was not read/],
    ['silent', 'TIMEOUT', /^Gave up after \d attempts? in [\d.]+ s: .*No answer from 127\.0\.0\.1:\d+ within/],
    ['redirect', 'UNEXPECTED_RESPONSE', /^The service redirected \(307\) to http:\/\/127\.0\.0\.1:\d+\/collect while listing users \(page 1\)\. Redirects are not followed: nothing was sent there\./],
    ['redirect-token', 'UNEXPECTED_RESPONSE', /^The service redirected \(307\) to http:\/\/127\.0\.0\.1:\d+\/collect while getting an access token/],
  ];

  it.each(listCases)('users list, %s: %s with a clear message, no secret shown', async (hostileMode, code, message) => {
    mode = hostileMode;
    const error = await failure(connect().client.listUsers());
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(leaks(error, secrets())).toEqual([]);
  });

  const actCases: Array<[HostileMode, string, Outcome, RegExp]> = [
    ['html', 'UNEXPECTED_RESPONSE', 'unknown', /could not be read as JSON\. The outcome is UNKNOWN/],
    ['invalid-json', 'UNEXPECTED_RESPONSE', 'unknown', /could not be read as JSON\. The outcome is UNKNOWN/],
    ['huge', 'UNEXPECTED_RESPONSE', 'unknown', /larger than 64 KB.*The outcome is UNKNOWN/],
    ['silent', 'TIMEOUT', 'unknown', /within [\d.]+ s while anonymising user “alice”\. The outcome is UNKNOWN/],
    ['redirect', 'UNEXPECTED_RESPONSE', 'refused', /^The service redirected \(307\) to http:\/\/127\.0\.0\.1:\d+\/collect while anonymising user “alice”\. Redirects are not followed: nothing was sent there and nothing was changed\./],
    ['redirect-token', 'UNEXPECTED_RESPONSE', 'not-sent', /redirected \(307\) .*while getting an access token \(scope authentication\)/],
  ];

  it.each(actCases)('anonymise through the gate, %s: %s, outcome %s, audited', async (hostileMode, code, outcome, message) => {
    mode = hostileMode;
    const { gate, entries } = connect();
    const error = await failure(gate.erase({ action: 'anonymize', uid: 'alice', confirmUid: 'alice', logoutFirst: false }));
    expect(error).toMatchObject({ code, outcome });
    expect(error.message).toMatch(message);
    expect(leaks(error, secrets())).toEqual([]);
    // The act was sent at most once: never retried, never followed elsewhere.
    expect(hostile.received.filter((r) => r.url.endsWith('/anonymize')).length).toBe(hostileMode === 'redirect-token' ? 0 : 1);
    const act = entries.filter((entry) => entry.action === 'anonymize');
    expect(act.map((entry) => entry.outcome)).toEqual(['attempted', outcome]);
  });

  const logoutCases: Array<[HostileMode, string, Outcome]> = [
    ['html', 'UNEXPECTED_RESPONSE', 'unknown'],
    ['invalid-json', 'UNEXPECTED_RESPONSE', 'unknown'],
    ['huge', 'UNEXPECTED_RESPONSE', 'unknown'],
    ['silent', 'TIMEOUT', 'unknown'],
    ['redirect', 'UNEXPECTED_RESPONSE', 'refused'],
  ];

  it.each(logoutCases)('logout through the gate, %s: %s, outcome %s', async (hostileMode, code, outcome) => {
    mode = hostileMode;
    const { gate } = connect();
    const ended = await gate.logout({ uid: 'alice' }).then(
      (result) => ({ code: result.errorCode, outcome: result.outcome }),
      (error: unknown) => error,
    );
    expect(ended).toMatchObject({ code, outcome });
    expect(hostile.received.filter((r) => r.url.startsWith('/auth/logout/')).length).toBe(1);
  });

  describe('the CLI (in-process)', () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-hostile-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    async function cli(args: string[]) {
      let stdout = '';
      let stderr = '';
      const code = await runCli([...args, '--base-url', hostile.url, '--app', 'app'], {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        stdin: Readable.from([]),
        env: {
          PATH: process.env.PATH,
          PRIVACY_DESK_DATA_DIR: dataDir,
          PRIVACY_DESK_API_KEY: HOSTILE_CREDENTIALS.apiKey,
          PRIVACY_DESK_API_SECRET: HOSTILE_CREDENTIALS.apiSecret,
          PRIVACY_DESK_CREDENTIAL_STORE: 'session',
          NO_COLOR: '1',
        },
      });
      expect(`${stdout}${stderr}`).not.toContain(HOSTILE_CREDENTIALS.apiSecret);
      return { code, stdout, stderr };
    }

    it('users list shows escape sequences in names, e-mails and uids as text; the table keeps its rows', async () => {
      mode = 'escapes';
      const run = await cli(['users', 'list']);
      expect(run.code).toBe(0);
      expect(run.stdout.replace(/\n/g, '')).not.toMatch(OBEYED);
      // The name column is cut at 32 columns, after the escape.
      expect(run.stdout).toContain('Mallory\\u001b]0;pwned');
      expect(run.stdout).toContain('user-\\u001b[2K\\u001b[1A-fake');
      expect(run.stdout).toContain('mallory@example.org\\u009b31m\\u007f');
      // Header, rule, one user, footer: no row added or erased.
      expect(run.stdout.trimEnd().split('\n')).toHaveLength(4);
    });

    it('users list --json is valid JSON with the same values and nothing a terminal obeys', async () => {
      mode = 'escapes';
      const run = await cli(['users', 'list', '--json']);
      expect(run.code).toBe(0);
      expect(run.stdout.replace(/\n/g, '')).not.toMatch(OBEYED);
      const printed = JSON.parse(run.stdout) as { users: Array<Record<string, unknown>> };
      expect(printed.users[0]).toMatchObject({ uid: ESCAPE_USER.uid, full_name: ESCAPE_USER.full_name, email: ESCAPE_USER.email });
    });

    it('an error quoting the service shows its escape sequences as text', async () => {
      mode = 'escapes';
      const run = await cli(['users', 'anonymize', 'alice', '--confirm', 'alice', '--no-logout-first']);
      expect(run.stderr).toMatch(/SERVER_ERROR/);
      expect(run.stderr.replace(/\n/g, '')).not.toMatch(OBEYED);
      expect(run.stderr).toContain('\\u001b[2K');
    });

    it('--timeout bounds a silent service: TIMEOUT, exit 1, within the budget', async () => {
      mode = 'silent';
      const run = await cli(['users', 'list', '--timeout', '0.2']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^TIMEOUT: Gave up after \d attempts? in [\d.]+ s: a page of the list is asked for again for up to 0\.4 s\. /);
    });

    it('--timeout must be a positive number of seconds (exit 2, nothing sent)', async () => {
      for (const value of ['0', '-1', 'soon', '601']) {
        const run = await cli(['users', 'list', '--timeout', value]);
        expect(run.code, value).toBe(2);
        expect(run.stderr).toMatch(/--timeout must be a number of seconds/);
      }
      expect(hostile.received).toEqual([]);
    });
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONFORMANCE_CASE_IDS, CONFORMANCE_SOURCES, CONFORMANCE_VERDICTS } from '../../shared/logout-conformance';
import { startCliFixture, type CliFixture } from './cli-harness';

const UID = 'alice@example.org';

interface XmlCase {
  '@_name': string;
  failure?: { '@_type': string; '@_message': string };
  skipped?: { '@_message': string };
}
interface XmlSuite {
  '@_name': string;
  testcase: XmlCase[];
}
interface XmlRoot {
  testsuites: { '@_tests': string; '@_failures': string; testsuite: XmlSuite[] };
}

/** Checks that the text is well-formed XML (throws with where it is not), then reads it, attributes included. */
function parseJunit(text: string): XmlRoot['testsuites'] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`Not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' });
  return (parser.parse(text) as XmlRoot).testsuites;
}

/** How many logout requests the sandbox has received (its own count, GET /sandbox/stats). */
async function logoutRequests(f: CliFixture): Promise<number> {
  const stats = (await (await fetch(`${f.sandbox.url}/sandbox/stats`)).json()) as { logoutRequests: number };
  return stats.logoutRequests;
}

describe('privacy-desk logout conformance (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  let reports: string;
  beforeAll(async () => {
    f = await startCliFixture(20);
    reports = mkdtempSync(join(tmpdir(), 'privacy-desk-conformance-'));
  });
  afterAll(async () => {
    rmSync(reports, { recursive: true, force: true });
    await f.close();
  });
  beforeEach(async () => {
    await f.sandbox.reset();
  });

  it('exits 0 on a sandbox keeping every rule; --json has the documented shape; the JUnit file is valid XML with a test case per rule', async () => {
    f.sandbox.setVariants({ logoutLapses: [] });
    const junit = join(reports, 'strict.xml');
    const report = join(reports, 'strict.json');
    const { code, stdout } = await f.cli(['logout', 'conformance', '--uid', UID, '--json', '--junit', junit, '--report', report]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { cases: Array<Record<string, unknown>>; overall: string };
    expect(json.cases.map((one) => one.id)).toEqual(CONFORMANCE_CASE_IDS);
    for (const one of json.cases) {
      expect(one).toMatchObject({ id: expect.any(String), rule: expect.any(String), expected: expect.any(String), actual: expect.any(String) });
      expect(CONFORMANCE_SOURCES).toContain(one.source);
      expect(CONFORMANCE_VERDICTS).toContain(one.verdict);
      expect(one.verdict).toBe('conformant');
    }
    expect(json.overall).toBe('conformant');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual(json);

    expect(() => parseJunit('<testsuites><testsuite></testsuites>')).toThrow(); // the check is strict
    const root = parseJunit(readFileSync(junit, 'utf8'));
    expect(root['@_tests']).toBe(String(CONFORMANCE_CASE_IDS.length));
    expect(root['@_failures']).toBe('0');
    expect(root.testsuite.map((suite) => suite['@_name'])).toEqual(['logout conformance: the service’s docs', 'logout conformance: OpenID Connect specification', 'logout conformance: good practice']);
    const cases = root.testsuite.flatMap((suite) => suite.testcase);
    expect(cases.map((one) => one['@_name'].split(':')[0]).sort()).toEqual([...CONFORMANCE_CASE_IDS].sort());
    expect(cases.filter((one) => one.failure || one.skipped)).toEqual([]);
    // Each send audited: attempted, then its outcome.
    const conformanceTests = f.auditLines().filter((entry) => (entry.test as { run?: string } | undefined)?.run === 'conformance');
    expect(conformanceTests.filter((entry) => entry.outcome === 'attempted').length).toBe(17);
  });

  it('exits 1 when a rule of the service’s docs is not met, and the JUnit file says which, as a failure of that suite', async () => {
    f.sandbox.setVariants({ logoutLapses: ['alg-none'] });
    const junit = join(reports, 'alg-none.xml');
    const { code, stdout } = await f.cli(['logout', 'conformance', '--uid', UID, '--junit', junit]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^alg-none +service docs +NOT CONFORMANT/m);
    expect(stdout).toMatch(/^DEFECT \(alg-none\): An unsigned token/m);
    expect(stdout).toMatch(/^Verdict: a rule of the service’s docs is NOT met\.$/m);
    const root = parseJunit(readFileSync(junit, 'utf8'));
    const failing = root.testsuite.flatMap((suite) => suite.testcase.filter((one) => one.failure).map((one) => ({ suite: suite['@_name'], name: one['@_name'], type: one.failure?.['@_type'] })));
    expect(failing).toEqual([{ suite: 'logout conformance: the service’s docs', name: expect.stringMatching(/^alg-none: /), type: 'service-docs' }]);
  });

  it('exits 0 when only OIDC or good-practice rules are not met (printed as notes): the sandbox as it behaves by default', async () => {
    const { code, stdout } = await f.cli(['logout', 'conformance', '--uid', UID]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Note \(no-events\): /m);
    expect(stdout).not.toMatch(/^DEFECT/m);
    expect(stdout).toMatch(/^Verdict: every rule of the service’s docs is met\.$/m);
  });

  it('exits 3 when no rule of the docs failed but one could not be judged (a failing service)', async () => {
    f.sandbox.setFaults({ errorRate: 1 });
    const { code, stdout } = await f.cli(['logout', 'conformance', '--uid', UID, '--json']);
    expect(code).toBe(3);
    const json = JSON.parse(stdout) as { cases: Array<{ verdict: string; actual: string }> };
    expect(new Set(json.cases.map((one) => one.verdict))).toEqual(new Set(['inconclusive']));
    expect(json.cases[0]?.actual).toMatch(/^answered 5\d\d \(SERVER_ERROR\), which does not judge the token; the sessions stayed open$/);
  });

  it('a uid the sandbox has no active user for: inconclusive (exit 3), each undecided case said whole, and the reason named', async () => {
    const { code, stdout } = await f.cli(['logout', 'conformance', '--uid', 'nobody-on-the-sandbox']);
    expect(code).toBe(3);
    expect(stdout).toMatch(/^Inconclusive \(valid\): accepted \(200\); no session could be opened for nobody-on-the-sandbox on the sandbox, so none could end\.$/m);
    expect(stdout).toMatch(/^No session could be opened for nobody-on-the-sandbox: the sandbox has no active user with this uid/m);
    expect(stdout).not.toMatch(/Sessions were not checked on this service/);
  });

  it('a live service needs --confirm with the uid: without it, exit 2 and nothing is sent or audited', async () => {
    const before = f.auditLines().length;
    const live = ['--base-url', 'https://debate.invalid', '--app', 'app'];
    const missing = await f.cli(['logout', 'conformance', '--uid', UID, ...live], { connection: false });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^LIVE DATA: debate\.invalid$/m);
    expect(missing.stderr).toMatch(/^CONFIRMATION_MISMATCH: This run sends real logout tokens to debate\.invalid/m);
    expect(missing.stderr).toMatch(/There is no terminal to ask on: give --confirm with the uid again to run it\. Nothing was sent\.$/m);
    const wrong = await f.cli(['logout', 'conformance', '--uid', UID, '--confirm', 'alice', ...live], { connection: false });
    expect(wrong.code).toBe(2);
    expect(f.auditLines()).toHaveLength(before);
  });

  it('a report file that cannot be written is said before anything is sent (exit 2, nothing audited, no logout on the service)', async () => {
    const before = f.auditLines().length;
    const logoutsBefore = await logoutRequests(f);
    for (const flag of ['--junit', '--report']) {
      const { code, stdout, stderr } = await f.cli(['logout', 'conformance', '--uid', UID, '--json', flag, join(reports, 'no-such-folder', 'out.xml')]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^INVALID_INPUT: The report cannot be written to .*no-such-folder.*: its folder does not exist\. Nothing was sent; give another path\.$/m);
      expect(stderr).toMatch(/^Outcome: not sent/m);
      expect((JSON.parse(stdout) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    }
    const folder = await f.cli(['logout', 'conformance', '--uid', UID, '--junit', reports]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/^INVALID_INPUT: The report cannot be written to /m);
    expect(f.auditLines()).toHaveLength(before);
    expect(await logoutRequests(f)).toBe(logoutsBefore);
  });

  it('logout UID still logs a user out; --uid is required for the conformance run', async () => {
    const run = await f.cli(['logout', UID]);
    expect(run.code).toBe(0);
    const missing = await f.cli(['logout', 'conformance']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--uid/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { uidFile } from './batch-harness';

/**
 * What `batch … --check` says of uids that are not on the service while one that differs only by what nobody
 * sees is, and what the preview says will be sent once --use-trimmed chose the trimmed uids.
 */
describe('privacy-desk batch --check: likely mistakes, and what --use-trimmed sends', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(500);
    const created = await fetch(`${f.sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: 'marie.curie@example.org' }) });
    expect(created.status).toBe(201);
  });
  afterAll(() => f.close());

  it('calls out a trailing ZWSP as trimmable, and capitals or an inner NBSP with the uid on the service (not offered)', async () => {
    const list = uidFile(['user-000020', 'user-000302\u200b', ' user-000490 ', 'Marie.Curie@example.org', 'ZOË.MÜLLER', 'jean\u00a0dupont']);
    const { code, stdout } = await f.cli(['batch', 'delete', list, '--check', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('  Likely mistake: 2 uids begin or end with spaces or invisible characters and are not on the service, but the same uids without them are:\n');
    expect(stdout).toContain('    line 2: “user-000302\\u200b” → “user-000302”\n');
    expect(stdout).toContain('    line 3: “ user-000490 ” → “user-000490”\n');
    expect(stdout).toContain('  Likely mistake: 3 uids are not on the service, but a uid that differs from each only in capitals, accents or invisible characters is:\n');
    expect(stdout).toContain('    line 4: “Marie.Curie@example.org” — on the service: “marie.curie@example.org” (capitals or accents differ)\n');
    expect(stdout).toContain('    line 5: “ZOË.MÜLLER” — on the service: “zoë.müller” (capitals or accents differ)\n');
    expect(stdout).toContain('    line 6: “jean\\u00a0dupont” — on the service: “jean dupont” (invisible characters differ)\n');
    expect(stdout).toMatch(/They are sent as pasted and end "not found": .* correct those lines in the list/);
  });

  it('after --use-trimmed, the trimmed uids are neither listed as not found nor shown as pasted among the first uids', async () => {
    const list = uidFile([' user-000490 ', 'user-000031\u00a0', 'user-000022', 'never-existed-8']);
    const { code, stdout } = await f.cli(['batch', 'delete', list, '--check', '--use-trimmed', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('Checked against the service (501 users read): as they will be sent, 3 of 4 uids exist, 1 does not (2 are sent trimmed by --use-trimmed; as pasted, 1 existed).\n');
    expect(stdout).toContain('  Not found (each will end as "not found": already erased, or never existed):\n    “never-existed-8”\n  ');
    expect(stdout).not.toMatch(/Not found[^\n]*\n {4}“ user-000490 ”/);
    expect(stdout).toContain('  --use-trimmed: the trimmed uids are sent; the job and the audit trail record each uid as pasted');
    expect(stdout).toContain('  first:        “user-000490” (pasted “ user-000490 ”), “user-000031” (pasted “user-000031\\u00a0”), “user-000022”\n');
    expect(stdout).not.toContain('first:        “ user-000490 ”');
  });
});

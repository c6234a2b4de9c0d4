import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE } from '../../core/keytar-credential-store';
import { teamPasswordAccount } from '../../core/team/team-settings';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';
import { assertSecretNowhereUnder, ensureBuiltCli, runBin, startCliFixture, type CliFixture } from './cli-harness';

const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED CLI team keychain tests: PRIVACY_DESK_KEYRING is not set. Run them with: bash scripts/with-keyring.sh npx vitest run --project keychain');
const skip = pgSkipReason();

/**
 * The team database's password through the real keychain: asked once (here from the environment), kept in the
 * keychain only, then every command — the built bin included — reads it from there with nothing in the environment;
 * disconnect removes it.
 */
describe.skipIf(!keyring || skip !== null)('privacy-desk team with the real keychain', () => {
  let f: CliFixture;
  let cluster: PgCluster;
  const useKeychain = { PRIVACY_DESK_CREDENTIAL_STORE: undefined, PRIVACY_DESK_DATABASE_PASSWORD: undefined };
  beforeAll(async () => {
    ensureBuiltCli();
    cluster = await startPgCluster({ fsync: false });
    f = await startCliFixture(10);
  }, 60_000);
  afterAll(async () => {
    await f?.close();
    await cluster?.destroy();
  });

  it('keeps the password in the keychain only; the commands that follow (the bin too) read it there; disconnect removes it', async () => {
    const connect = await f.cli(['team', 'connect', '--database-url', cluster.url], { env: { ...useKeychain, PRIVACY_DESK_DATABASE_PASSWORD: cluster.password }, connection: false });
    expect(connect.code, connect.stderr).toBe(0);
    expect(connect.stderr).toMatch(/kept in the OS keychain, never in a file/);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, teamPasswordAccount(f.dataDir))).toBe(cluster.password);
    expect(readFileSync(join(f.dataDir, 'team.json'), 'utf8')).not.toContain(cluster.password);

    const status = await f.cli(['team', 'status', '--json'], { env: useKeychain, connection: false });
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'team', password: 'keychain', reachable: true, role: 'desk' });
    const listed = await f.cli(['users', 'list', '--json'], { env: useKeychain });
    const uid = (JSON.parse(listed.stdout) as { users: Array<{ uid: string }> }).users[1]!.uid;
    const erased = await runBin(f, ['users', 'anonymize', uid, '--confirm', uid, '--reference', 'KEYCHAIN-TEAM'], { env: useKeychain });
    expect(erased.code, erased.stderr).toBe(0);
    const verified = await runBin(f, ['audit', 'verify', '--json'], { env: useKeychain, connection: false });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    for (const run of [connect, status, listed, erased, verified]) expect(run.stdout + run.stderr).not.toContain(cluster.password);

    const left = await f.cli(['team', 'disconnect'], { env: useKeychain, connection: false });
    expect(left.code).toBe(0);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, teamPasswordAccount(f.dataDir))).toBeNull();
    assertSecretNowhereUnder(f.dataDir, cluster.password);
  });
});

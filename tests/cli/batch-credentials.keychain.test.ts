import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE } from '../../core/keytar-credential-store';
import { startCliFixture, type CliFixture } from './cli-harness';
import { uidFile } from './batch-harness';

const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED CLI batch credentials keychain tests: PRIVACY_DESK_KEYRING is not set. Run them with: bash scripts/with-keyring.sh npx vitest run --project keychain');

/**
 * A saved profile whose keys are no longer in the keychain: a batch says so before it reads the list or
 * announces what it is about to do, not after the whole "About to run this batch — irreversible" preview.
 */
describe.skipIf(!keyring)('privacy-desk batch with a profile whose keys are not in the keychain', () => {
  let f: CliFixture;
  const noEnvCredentials = { PRIVACY_DESK_CREDENTIAL_STORE: undefined, PRIVACY_DESK_API_KEY: undefined, PRIVACY_DESK_API_SECRET: undefined };
  let profileId: string;
  beforeAll(async () => {
    f = await startCliFixture(15);
    const add = await f.cli(['profiles', 'add', '--name', 'Keys gone', '--base-url', f.sandbox.url, '--app', 'sandbox-app'], { env: { PRIVACY_DESK_CREDENTIAL_STORE: undefined }, connection: false });
    expect(add.code).toBe(0);
    const list = JSON.parse((await f.cli(['profiles', 'list', '--json'], { env: noEnvCredentials, connection: false })).stdout) as { activeId: string };
    profileId = list.activeId;
    expect(await keytar.deletePassword(KEYCHAIN_SERVICE, profileId)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await keytar.deletePassword(KEYCHAIN_SERVICE, profileId).catch(() => false);
    await f.close();
  });

  for (const mode of [['--yes', 'DELETE 1'], ['--dry-run']]) {
    it(`says the keys are missing before the preview (${mode[0]}); nothing is read of the list, nothing sent`, async () => {
      const before = f.sandbox.stats().apiRequests;
      const { code, stdout, stderr } = await f.cli(['batch', 'delete', uidFile(['user-000002']), '--profile', 'Keys gone', ...mode], { env: noEnvCredentials, connection: false });
      expect(code).toBe(2);
      expect(stderr).toMatch(/^INVALID_INPUT: No API key and secret are stored for “Keys gone” in the keychain\./m);
      expect(stdout).toBe('');
      expect(f.sandbox.stats().apiRequests).toBe(before);
    });
  }
});

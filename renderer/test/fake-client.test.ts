import { describe, expect, it } from 'vitest';
import { BRIDGE_METHODS } from '../../shared/contract';
import { createFakeBridge } from './fake-bridge';

describe('the test fake of the bridge, derived from the contract', () => {
  it('answers every method the contract names', () => {
    const { bridge } = createFakeBridge();
    expect(Object.keys(bridge).sort()).toEqual([...BRIDGE_METHODS].sort());
  });

  it('refuses what the real bridge refuses, before its behaviour runs, and logs the call as sent', async () => {
    const fake = createFakeBridge();
    const usersBefore = fake.users.length;
    // The British spelling of an operation: the contract's schema refuses it.
    const sent = { profileId: 'sandbox', action: 'anonymise', uid: 'Carol', confirmUid: 'Carol' };
    await expect(fake.bridge['users.erase'](sent as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(fake.users).toHaveLength(usersBefore);
    expect(fake.users.find((user) => user.uid === 'Carol')).toBeDefined();
    expect(fake.callsOf('users.erase')).toEqual([sent]);
  });
});

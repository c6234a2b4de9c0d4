import type { BridgeCaller } from './fixtures';

const DAY_MS = 86_400_000;

/**
 * Requests received some days ago, registered through the bridge as the CLI would: one overdue (40 days), one due
 * within a week (26 days), one with time left (3 days). Returns their ids in that order.
 */
export async function seedRegister(bridge: BridgeCaller, profileId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const [daysAgo, uid] of [
    [40, 'bob+news@example.org'],
    [26, 'team/lead'],
    [3, 'hash#tag'],
  ] as const) {
    const created = await bridge('requests.create', { receivedAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString(), channel: 'letter', actions: ['delete'], subjects: [{ uid, profileId }], notes: 'Letter received at the front desk.' });
    if (!created.ok) throw new Error(`Seeding the register failed: ${created.error.message}`);
    ids.push(created.value.id);
  }
  return ids;
}

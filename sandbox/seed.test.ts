import { describe, expect, it } from 'vitest';
import { seedUsers, slugify } from './seed';
import { AWKWARD } from './test-support';

describe('seeded users', () => {
  it('are the same for the same seed and differ for another seed', () => {
    expect(seedUsers(1, 50)).toEqual(seedUsers(1, 50));
    expect(seedUsers(2, 50).map((u) => u.record.full_name)).not.toEqual(seedUsers(1, 50).map((u) => u.record.full_name));
  });

  it('include every awkward uid among the first 15 and a 1 024-character uid later', () => {
    const users = seedUsers(1, 500);
    const first15 = users.slice(0, 15).map((u) => u.record.uid);
    for (const uid of AWKWARD) expect(first15).toContain(uid);
    const long = users.filter((u) => u.record.uid?.length === 1024);
    expect(long).toHaveLength(1);
    expect(long[0]!.record.id).toBeGreaterThan(15);
  });

  it('have unique uids, e-mails and ids, realistic names, 0-3 sessions and counts matching contributions', () => {
    const users = seedUsers(7, 500);
    expect(new Set(users.map((u) => u.record.uid)).size).toBe(500);
    expect(new Set(users.map((u) => u.record.email)).size).toBe(500);
    expect(users.map((u) => u.record.id)).toEqual(users.map((_, i) => i + 1));
    expect(users.some((u) => /[éèëüöçø]/i.test(u.record.full_name ?? ''))).toBe(true);
    for (const user of users) {
      expect(user.sessions.length).toBeLessThanOrEqual(3);
      expect(user.messageIds).toHaveLength(user.record.messages_count);
      expect(user.voteIds).toHaveLength(user.record.votes_count);
      expect(user.record.slug).toMatch(/^[a-z0-9-]+$/);
    }
    const contributionIds = users.flatMap((u) => [...u.messageIds, ...u.voteIds]);
    expect(new Set(contributionIds).size).toBe(contributionIds.length);
  });

  it('still place the long uid when there are few users', () => {
    expect(seedUsers(1, 20).at(-1)?.record.uid).toHaveLength(1024);
  });

  it('slugify transliterates letters NFKD keeps', () => {
    expect(slugify('Søren Weiß Łukasz')).toBe('soren-weiss-lukasz');
  });
});

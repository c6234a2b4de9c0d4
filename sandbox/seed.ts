import { createRandom, type Random } from './prng';
import {
  AWKWARD_UIDS, CITIES, DESCRIPTIONS, EMAIL_DOMAINS, FIRST_NAMES, INTERESTS, LAST_NAMES, LEVELS, LONG_UID_INDEX,
  OCCUPATIONS, longUid,
} from './names';
import type { SandboxSession, ServiceUser, StoredUser } from './types';

// Fixed instants (never Date.now()) so that the same seed gives byte-identical users.
const FIRST_SIGN_UP = Date.parse('2019-01-01T00:00:00Z');
const LAST_SIGN_UP = Date.parse('2026-10-31T00:00:00Z');
const SEED_NOW = Date.parse('2026-11-20T12:00:00Z');

export const ANONYMOUS_NAME = 'Anonymous user';

// Letters that NFKD does not split into a base letter and an accent.
const TRANSLITERATIONS: Record<string, string> = { ø: 'o', Ø: 'O', ß: 'ss', ł: 'l', Ł: 'L', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', đ: 'd', ı: 'i' };

/** ASCII, lower case, dash-separated: what Rails' parameterize gives. */
export function slugify(text: string): string {
  return text
    .replace(/[øØßłŁæÆœŒđı]/g, (letter) => TRANSLITERATIONS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function emailLocalPart(first: string, last: string): string {
  return `${slugify(first).replace(/-/g, '')}.${slugify(last).replace(/-/g, '')}`;
}

function levelFor(id: number): ServiceUser['level'] {
  const level = LEVELS[(id - 1) % LEVELS.length] ?? LEVELS[0];
  return { ...level, icon_url: `https://assets.sandbox.example/levels/${level.id}.svg` };
}

function uidFor(index: number, total: number, first: string, last: string, id: number): string {
  const awkward = AWKWARD_UIDS.find((entry) => entry.index === index);
  if (awkward) return awkward.uid;
  // The 1 024-character uid sits at a fixed place, or last when there are fewer users.
  if (total > 15 && index === Math.min(LONG_UID_INDEX, total - 1)) return longUid();
  // Two realistic styles; the id suffix keeps every uid unique.
  if (id % 3 === 0) return `${emailLocalPart(first, last)}.${id}@${EMAIL_DOMAINS[id % EMAIL_DOMAINS.length]}`;
  return `user-${String(id).padStart(6, '0')}`;
}

function sessionsFor(random: Random, userId: number): SandboxSession[] {
  const count = random.int(0, 3);
  return Array.from({ length: count }, (_, i) => ({
    id: `seed-session-${userId}-${i + 1}`,
    createdAt: new Date(SEED_NOW - random.int(0, 14 * 86_400) * 1000).toISOString(),
  }));
}

function seededUser(random: Random, index: number, total: number, contributionIds: { next: number }): StoredUser {
  const id = index + 1;
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const fullName = `${first} ${last}`;
  const hashId = random.alphanumeric(10);
  const createdAtMs = FIRST_SIGN_UP + Math.floor(random.next() * (LAST_SIGN_UP - FIRST_SIGN_UP));
  const messages = random.chance(0.25) ? 0 : random.int(1, 40);
  const votes = random.chance(0.15) ? 0 : random.int(1, 120);
  const takeIds = (count: number): number[] => Array.from({ length: count }, () => contributionIds.next++);
  const messageIds = takeIds(messages);
  const voteIds = takeIds(votes);
  const interests = Array.from(new Set([random.pick(INTERESTS), random.pick(INTERESTS), random.pick(INTERESTS)]));
  const record: ServiceUser = {
    id,
    uid: uidFor(index, total, first, last, id),
    hash_id: hashId,
    slug: `${slugify(fullName)}-${id}`,
    full_name: fullName,
    email: `${emailLocalPart(first, last)}${id}@${random.pick(EMAIL_DOMAINS)}`,
    image_url: random.chance(0.6) ? `https://cdn.sandbox.example/avatars/${hashId}.png` : null,
    description: random.chance(0.5) ? random.pick(DESCRIPTIONS) : null,
    level: levelFor(id),
    score: random.int(0, 5000),
    points: random.int(0, 12000),
    created_at: new Date(createdAtMs).toISOString(),
    last_activity: random.chance(0.9)
      ? new Date(createdAtMs + Math.floor(random.next() * (SEED_NOW - createdAtMs))).toISOString()
      : null,
    messages_count: messages,
    votes_count: votes,
    age: random.chance(0.7) ? random.int(16, 88) : null,
    city: random.chance(0.8) ? random.pick(CITIES) : null,
    occupation: random.chance(0.6) ? random.pick(OCCUPATIONS) : null,
    interests: random.chance(0.75) ? interests.join(',') : null,
  };
  return { record, state: 'active', messageIds, voteIds, sessions: sessionsFor(random, id) };
}

/** The seeded population: deterministic for a given (seed, count). */
export function seedUsers(seed: number, count: number): StoredUser[] {
  const random = createRandom(seed);
  const contributionIds = { next: 1 };
  return Array.from({ length: count }, (_, index) => seededUser(random, index, count, contributionIds));
}

/** What POST /sandbox/users may set; everything but the uid is optional. */
export type NewUserInput = { uid: string } & Partial<Omit<ServiceUser, 'id' | 'uid'>> & { sessions?: number };

export function buildUser(input: NewUserInput, id: number, contributionIds: { next: number }, now: Date): StoredUser {
  const { sessions: sessionCount = 0, ...fields } = input;
  const fullName = fields.full_name ?? null;
  const messages = fields.messages_count ?? 0;
  const votes = fields.votes_count ?? 0;
  const takeIds = (count: number): number[] => Array.from({ length: count }, () => contributionIds.next++);
  const hashId = fields.hash_id ?? createRandom(id * 7919 + now.getTime()).alphanumeric(10);
  const record: ServiceUser = {
    id,
    uid: input.uid,
    hash_id: hashId,
    slug: fields.slug ?? `${slugify(fullName ?? 'user') || 'user'}-${id}`,
    full_name: fullName,
    email: fields.email ?? null,
    image_url: fields.image_url ?? null,
    description: fields.description ?? null,
    level: fields.level ?? levelFor(1),
    score: fields.score ?? 0,
    points: fields.points ?? 0,
    created_at: fields.created_at ?? now.toISOString(),
    last_activity: fields.last_activity ?? null,
    messages_count: messages,
    votes_count: votes,
    age: fields.age ?? null,
    city: fields.city ?? null,
    occupation: fields.occupation ?? null,
    interests: fields.interests ?? null,
  };
  const sessions = Array.from({ length: sessionCount }, (_, i) => ({
    id: `created-session-${id}-${i + 1}`,
    createdAt: now.toISOString(),
  }));
  return { record, state: 'active', messageIds: takeIds(messages), voteIds: takeIds(votes), sessions };
}

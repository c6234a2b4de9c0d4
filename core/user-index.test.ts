import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../shared/users';
import { createUserIndexes } from './user-index';
import { normalizeUser } from './user-record';

const PEOPLE: UserRecord[] = [
  normalizeUser({ id: 1, uid: 'jean dupont', full_name: 'Jean Bernard', email: 'jb@example.org' }),
  normalizeUser({ id: 2, uid: 'emile-42', full_name: 'Émile Zola', email: 'EMILE@Example.org' }),
  normalizeUser({ id: 3, uid: 'zoë.müller', full_name: 'Zoë Müller', email: 'zoe@example.org' }),
  normalizeUser({ id: 4, uid: null, full_name: null, email: null }),
  normalizeUser({ id: 5, uid: 'x-émilie', full_name: 'Marie Émilie', email: 'me@example.org' }),
];

function setup(people: UserRecord[] = PEOPLE) {
  let clock = Date.UTC(2026, 10, 22, 12, 0, 0);
  let walks = 0;
  const indexes = createUserIndexes({
    walk: async () => {
      walks += 1;
      return { users: people, pages: 1, baseUrl: 'http://127.0.0.1:4600' };
    },
    now: () => clock,
    ttlMs: 15 * 60_000,
  });
  return { indexes, advance: (ms: number) => (clock += ms), walks: () => walks };
}

const found = (answer: ReturnType<ReturnType<typeof setup>['indexes']['search']>) =>
  answer.state === 'ready' ? answer.matches.map((match) => match.user.fields.id) : 'missing';

describe('the user index', () => {
  it('says "missing" until a walk has built it', async () => {
    const { indexes } = setup();
    expect(indexes.search('p', 'jean')).toEqual({ state: 'missing' });
    await expect(indexes.build('p')).resolves.toMatchObject({ users: 5, pages: 1, indexedAt: '2026-11-22T12:00:00.000Z' });
    expect(found(indexes.search('p', 'jean'))).toEqual([1]);
  });

  it('finds "emile" in "Émile" and "EMILE@", ignoring case and accents, exact and prefix matches first', async () => {
    const { indexes } = setup();
    await indexes.build('p');
    expect(found(indexes.search('p', 'emile'))).toEqual([2]);
    expect(found(indexes.search('p', 'ÉMIL'))).toEqual([2, 5]);
    expect(found(indexes.search('p', 'zoe muller'))).toEqual([3]);
    expect(found(indexes.search('p', 'nobody'))).toEqual([]);
  });

  it('gives the matched parts in the field’s own text, whole accented characters included', async () => {
    const { indexes } = setup();
    await indexes.build('p');
    const answer = indexes.search('p', 'emil');
    if (answer.state !== 'ready') throw new Error('expected an index');
    const emile = answer.matches[0]!;
    expect(emile.ranges).toEqual([
      { field: 'uid', start: 0, end: 4 },
      { field: 'fullName', start: 0, end: 4 },
      { field: 'email', start: 0, end: 4 },
    ]);
    expect(emile.user.fullName!.slice(0, 4)).toBe('Émil');
    const marie = answer.matches[1]!;
    expect(marie.ranges).toContainEqual({ field: 'fullName', start: 6, end: 10 });
  });

  it('maps ranges through decomposed accents (a letter followed by a combining mark)', async () => {
    const decomposed = 'Cafe\u0301 Ame\u0301lie';
    const { indexes } = setup([normalizeUser({ id: 9, uid: 'u9', full_name: decomposed })]);
    await indexes.build('p');
    const answer = indexes.search('p', 'amelie');
    if (answer.state !== 'ready') throw new Error('expected an index');
    const range = answer.matches[0]!.ranges[0]!;
    expect(decomposed.slice(range.start, range.end)).toBe('Ame\u0301lie');
  });

  it('counts every match and returns at most the limit', async () => {
    const many = Array.from({ length: 120 }, (_, i) => normalizeUser({ id: i, uid: `user-${i}`, full_name: `Person ${i}` }));
    const { indexes } = setup(many);
    await indexes.build('p');
    const answer = indexes.search('p', 'person', 10);
    expect(answer).toMatchObject({ state: 'ready', total: 120, indexedUsers: 120 });
    expect(answer.state === 'ready' && answer.matches).toHaveLength(10);
  });

  it('is dropped after its time limit, on request, and per profile', async () => {
    const { indexes, advance } = setup();
    await indexes.build('p');
    await indexes.build('q');
    advance(14 * 60_000);
    expect(indexes.search('p', 'jean').state).toBe('ready');
    expect(indexes.forget('q')).toBe(true);
    expect(indexes.search('q', 'jean').state).toBe('missing');
    expect(indexes.search('p', 'jean').state).toBe('ready');
    advance(60_000);
    expect(indexes.search('p', 'jean').state).toBe('missing');
  });

  it('does not keep a walk that was under way when the profile changed', async () => {
    let release: () => void = () => {};
    const indexes = createUserIndexes({
      walk: () => new Promise((resolve) => (release = () => resolve({ users: PEOPLE, pages: 1, baseUrl: 'http://127.0.0.1:4600' }))),
    });
    const building = indexes.build('p');
    indexes.forget('p');
    release();
    await building;
    expect(indexes.search('p', 'jean').state).toBe('missing');
  });

  it('removes an erased user at once', async () => {
    const { indexes } = setup();
    await indexes.build('p');
    indexes.erased([{ profileId: 'p', service: 'elsewhere', uid: 'emile-42' }]);
    expect(found(indexes.search('p', 'emil'))).toEqual([5]);
    expect(indexes.search('p', 'x').state === 'ready' && indexes.search('p', 'x')).toMatchObject({ indexedUsers: 4 });
  });

  it('removes a user erased on the same service under another profile (a CLI run with --base-url), and no other', async () => {
    const { indexes } = setup();
    await indexes.build('p');
    indexes.erased([{ profileId: 'temporary', service: 'http://127.0.0.1:4600', uid: 'jean dupont' }]);
    indexes.erased([{ profileId: 'other', service: 'https://debate.example.org', uid: 'emile-42' }]);
    expect(found(indexes.search('p', 'jean'))).toEqual([]);
    expect(found(indexes.search('p', 'emile'))).toEqual([2]);
  });

  it('takes out of a new list the users erased while its pages were being read', async () => {
    let release: () => void = () => {};
    const indexes = createUserIndexes({
      walk: () => new Promise((resolve) => (release = () => resolve({ users: PEOPLE, pages: 1, baseUrl: 'http://127.0.0.1:4600/' }))),
    });
    const building = indexes.build('p');
    indexes.erased([{ profileId: 'cli-profile', service: 'http://127.0.0.1:4600', uid: 'zoë.müller' }]);
    release();
    await expect(building).resolves.toMatchObject({ users: 4 });
    expect(found(indexes.search('p', 'zoe'))).toEqual([]);
  });

  it('looks up one exact uid and says how old the list is', async () => {
    const { indexes, advance } = setup();
    expect(indexes.lookup('p', 'jean dupont')).toEqual({ state: 'missing' });
    await indexes.build('p');
    advance(4 * 60_000);
    expect(indexes.lookup('p', 'jean dupont')).toMatchObject({ state: 'found', user: { uid: 'jean dupont' }, indexedAt: '2026-11-22T12:00:00.000Z', ageMs: 240_000 });
    // Exactly: case and spaces count.
    expect(indexes.lookup('p', 'Jean Dupont')).toMatchObject({ state: 'absent', indexedUsers: 5, indexedAt: '2026-11-22T12:00:00.000Z', ageMs: 240_000 });
    expect(indexes.lookup('p', 'jean dupont ')).toMatchObject({ state: 'absent' });
    expect(indexes.lookup('p', 'nobody')).toEqual({ state: 'absent', indexedUsers: 5, indexedAt: '2026-11-22T12:00:00.000Z', ageMs: 240_000 });
  });

  it('names the users an absent uid was likely meant for: the trimmed uid, one that looks the same, a case twin', async () => {
    const people = [
      normalizeUser({ id: 1, uid: 'user-000031', full_name: 'Ioana Evans' }),
      normalizeUser({ id: 2, uid: 'user-000302', full_name: 'Paul Kim' }),
      normalizeUser({ id: 3, uid: 'Marie.Curie@example.org', full_name: 'Marie Curie' }),
      normalizeUser({ id: 4, uid: 'zoë.müller', full_name: 'Zoë Müller' }),
      normalizeUser({ id: 5, uid: ' bob', full_name: 'Bob' }),
      normalizeUser({ id: 6, uid: 'jean dupont', full_name: 'Jean Dupont' }),
      normalizeUser({ id: 7, uid: 'user-000031-b', full_name: 'Someone else' }),
    ];
    const { indexes } = setup(people);
    await indexes.build('p');
    const near = (uid: string) => {
      const answer = indexes.lookup('p', uid);
      if (answer.state !== 'absent') throw new Error(`${uid} should be absent`);
      return (answer.nearMatches ?? []).map((match) => [match.user.uid, match.kind]);
    };
    expect(near(' user-000031 ')).toEqual([['user-000031', 'edge-spaces']]);
    expect(near('user-000031\u00a0')).toEqual([['user-000031', 'edge-spaces']]);
    expect(near('bob')).toEqual([[' bob', 'edge-spaces']]);
    expect(near('user-000302\u200b')).toEqual([['user-000302', 'looks-same']]);
    expect(near('jean\u00a0dupont')).toEqual([['jean dupont', 'looks-same']]);
    expect(near('zoe\u0308.mu\u0308ller')).toEqual([['zoë.müller', 'looks-same']]);
    expect(near('marie.curie@example.org')).toEqual([['Marie.Curie@example.org', 'case']]);
    expect(near('ZOË.MÜLLER')).toEqual([['zoë.müller', 'case']]);
    expect(near('user-000031-c')).toEqual([]);
  });
});

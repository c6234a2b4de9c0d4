import { describe, expect, it } from 'vitest';
import { SandboxState, seedSnapshot, type StateSnapshot } from './state';

const WHOLE_ARRAY_METHODS = [
  'concat', 'copyWithin', 'entries', 'every', 'fill', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flat',
  'flatMap', 'forEach', 'includes', 'indexOf', 'join', 'keys', 'lastIndexOf', 'map', 'reduce', 'reduceRight', 'reverse',
  'shift', 'slice', 'some', 'sort', 'splice', 'toReversed', 'toSorted', 'toSpliced', 'unshift', 'values', 'with', Symbol.iterator,
] as const;
const WHOLE_KEYED_METHODS = ['entries', 'forEach', 'keys', 'values', Symbol.iterator] as const;

/**
 * Runs `work` with every built-in method that walks a whole Array, Map or Set counting the elements it
 * may touch (the collection's length or size): an erasure that copies, filters, splices or spreads the
 * users shows up here, whatever it takes, without timing anything.
 */
function elementsWalkedBy(work: () => void): number {
  let walked = 0;
  const restore: Array<() => void> = [];
  const instrument = (prototype: object, names: readonly (string | symbol)[], sizeOf: (collection: never) => number): void => {
    for (const name of names) {
      const original = Reflect.get(prototype, name) as ((...args: unknown[]) => unknown) | undefined;
      if (typeof original !== 'function') continue;
      Reflect.set(prototype, name, function (this: never, ...args: unknown[]) {
        walked += sizeOf(this);
        return Reflect.apply(original, this, args);
      });
      restore.push(() => Reflect.set(prototype, name, original));
    }
  };
  instrument(Array.prototype, WHOLE_ARRAY_METHODS, (array: unknown[]) => array.length);
  instrument(Map.prototype, WHOLE_KEYED_METHODS, (map: Map<unknown, unknown>) => map.size);
  instrument(Set.prototype, WHOLE_KEYED_METHODS, (set: Set<unknown>) => set.size);
  try {
    work();
  } finally {
    for (const put of restore) put();
  }
  return walked;
}

const uidsOf = (state: SandboxState): string[] => state.allUsers().map((u) => u.record.uid ?? `(anonymised ${u.record.id})`);

describe('sandbox state: erasures', () => {
  it('deletes and anonymises without walking the users: 2,000 erasures of 20,000 users touch fewer elements than one pass', () => {
    const users = 20_000;
    const state = new SandboxState(seedSnapshot(1, users));
    const uids = state.allUsers().slice(0, 2_000).map((u) => u.record.uid!);
    const walked = elementsWalkedBy(() => {
      for (const uid of uids.slice(0, 1_000)) state.delete(uid);
      for (const uid of uids.slice(1_000)) state.anonymize(uid);
    });
    expect(walked).toBeLessThan(users);
    expect(state.allUsers()).toHaveLength(users - 1_000);
    expect(state.findActive(uids[0]!)).toBeUndefined();
    expect(state.inspect(uids[1_500]!)?.state).toBe('anonymized');
  });

  it('keeps the list in id order through deletes, anonymisations and new users, and snapshots it as before', () => {
    const state = new SandboxState(seedSnapshot(1, 6));
    const [first, second, third, fourth, fifth, sixth] = uidsOf(state);
    state.delete(second!);
    state.anonymize(third!);
    state.create({ uid: 'newcomer' });
    state.delete(fifth!);
    expect(state.allUsers().map((u) => u.record.id)).toEqual([1, 3, 4, 6, 7]);
    expect(uidsOf(state)).toEqual([first, '(anonymised 3)', fourth, sixth, 'newcomer']);
    const snapshot: StateSnapshot = state.snapshot();
    expect(snapshot.users).toEqual(state.allUsers());
    expect(snapshot.tombstones).toEqual([[second, { state: 'deleted', userId: 2 }], [third, { state: 'anonymized', userId: 3 }], [fifth, { state: 'deleted', userId: 5 }]]);
    expect(new SandboxState(structuredClone(snapshot)).snapshot()).toEqual(snapshot);
  });

  it('lets a deleted uid come back as a new user at the end of the list, and delete it again', () => {
    const state = new SandboxState(seedSnapshot(1, 4));
    const uid = uidsOf(state)[0]!;
    expect(state.delete(uid)).toBe(true);
    expect(state.delete(uid)).toBe(false);
    state.create({ uid });
    expect(state.allUsers().map((u) => u.record.id)).toEqual([2, 3, 4, 5]);
    expect(state.inspect(uid)?.state).toBe('active');
    expect(state.delete(uid)).toBe(true);
    expect(state.allUsers().map((u) => u.record.id)).toEqual([2, 3, 4]);
    expect(state.inspect(uid)?.state).toBe('deleted');
  });

  it('tells every change to onChange with the whole snapshot, as the data file needs', () => {
    const seen: StateSnapshot[] = [];
    const state = new SandboxState(seedSnapshot(1, 3), (snapshot) => seen.push(structuredClone(snapshot)));
    state.delete(uidsOf(state)[0]!);
    state.anonymize(uidsOf(state)[0]!);
    expect(seen.map((s) => s.users.map((u) => u.state))).toEqual([['active', 'active'], ['anonymized', 'active']]);
    expect(seen.at(-1)?.tombstones).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { looseUid, nearMatchDifferences } from './near-match';
import { compareUidSets } from './reconcile-sets';

const NFC_E = 'ren\u00e9';
const NFD_E = 'rene\u0301';

describe('compareUidSets: exact after NFC, near matches held apart', () => {
  it('sorts plain uids into orphans, missing and in both', () => {
    const sets = compareUidSets(['a', 'b', 'c'], ['b', 'c', 'd', 'e']);
    expect(sets.orphans).toEqual(['d', 'e']);
    expect(sets.missing).toEqual(['a']);
    expect(sets.inBoth).toEqual(['b', 'c']);
    expect(sets.nearMatches).toEqual([]);
  });

  it('matches an NFD uid to its NFC form (the service’s form is kept), and counts NFC twins in the list once', () => {
    const sets = compareUidSets([NFD_E, NFC_E, 'x'], [NFC_E]);
    expect(sets.inBoth).toEqual([NFC_E]);
    expect(sets.orphans).toEqual([]);
    expect(sets.missing).toEqual(['x']);
    expect(sets.sameAfterNfc).toBe(1);
  });

  it('keeps slashes, percent signs, CJK and inner spaces exact', () => {
    const awkward = ['team/lead', '100%done', '東京ユーザー', 'jean dupont', 'mixed /?#% ü+', 'what?really', 'hash#tag'];
    const sets = compareUidSets(awkward, [...awkward, 'team%2Flead', '100%25done']);
    expect(sets.inBoth).toEqual(awkward);
    expect(sets.orphans).toEqual(['team%2Flead', '100%25done']);
    expect(sets.missing).toEqual([]);
  });

  it('never makes an orphan of a service uid that differs from an application uid only by spaces, capitals or width', () => {
    const service = [' alice', 'Bob', 'carol  smith', 'ｄａｖｅ', 'eve\u200b', 'frank', 'STRASSE'];
    const application = ['alice', 'bob', 'carol smith', 'dave', 'eve', 'frank', 'straße'];
    const sets = compareUidSets(application, service);
    expect(sets.orphans).toEqual([]);
    expect(sets.missing).toEqual([]);
    expect(sets.inBoth).toEqual(['frank']);
    expect(sets.nearMatches).toEqual([
      { service: ' alice', application: 'alice', differences: ['edge-spaces'] },
      { service: 'Bob', application: 'bob', differences: ['case'] },
      { service: 'carol  smith', application: 'carol smith', differences: ['inner-spaces'] },
      { service: 'ｄａｖｅ', application: 'dave', differences: ['compatibility'] },
      { service: 'eve\u200b', application: 'eve', differences: ['edge-spaces'] },
      { service: 'STRASSE', application: 'straße', differences: ['case'] },
    ]);
  });

  it('holds back a service "Alice" beside an exact "alice", and names an application " bob" beside an exact "bob"', () => {
    const sets = compareUidSets(['alice', ' bob', 'bob'], ['alice', 'Alice', 'bob', 'zed']);
    expect(sets.inBoth).toEqual(['alice', 'bob']);
    expect(sets.orphans).toEqual(['zed']);
    expect(sets.missing).toEqual([]);
    expect(sets.nearMatches).toEqual([
      { service: 'Alice', application: 'alice', differences: ['case'] },
      { service: 'bob', application: ' bob', differences: ['edge-spaces'] },
    ]);
  });

  it('names every difference a pair needs', () => {
    expect(nearMatchDifferences(' Alice ', 'alice')).toEqual(['edge-spaces', 'case']);
    expect(nearMatchDifferences('a\u00a0b', 'A b')).toEqual(['inner-spaces', 'case']);
    expect(nearMatchDifferences(' a', ' A')).toEqual(['case']);
    expect(looseUid('  Ａ\u200bB  c ')).toBe('ab c');
  });

  it('compares 100,000 against 100,000 with one near match', () => {
    const service = Array.from({ length: 100_000 }, (_, i) => `user-${i}`);
    const application = Array.from({ length: 100_000 }, (_, i) => (i === 7 ? 'USER-7' : `user-${i + 50_000}`));
    const sets = compareUidSets(application, service);
    expect(sets.inBoth).toHaveLength(50_000 - 1);
    expect(sets.orphans).toHaveLength(50_000);
    expect(sets.missing).toHaveLength(50_000);
    expect(sets.nearMatches).toEqual([{ service: 'user-7', application: 'USER-7', differences: ['case'] }]);
  });
});

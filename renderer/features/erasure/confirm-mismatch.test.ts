import { describe, expect, it } from 'vitest';
import { invisibleDifferences } from './confirm-mismatch';

const kinds = (typed: string, uid: string) => invisibleDifferences(typed, uid)?.map((d) => d.kind);

describe('differences a reader cannot see between the typed confirmation and the uid', () => {
  it('the sign ␣ copied where the uid has a space, at each place', () => {
    expect(invisibleDifferences('dave␣smith', 'dave smith')).toEqual([{ kind: 'sign', at: 5, sign: '␣', stands: expect.objectContaining({ char: ' ' }), uidChar: expect.objectContaining({ char: ' ', name: 'space' }) }]);
    expect(kinds('␣bob', ' bob')).toEqual(['sign']);
  });

  it('a sign in angle brackets from a plain-text title (⟨NBSP⟩) where the uid has that character', () => {
    expect(invisibleDifferences('a⟨NBSP⟩b', 'a\u00a0b')).toEqual([expect.objectContaining({ kind: 'sign', at: 2, sign: '⟨NBSP⟩', uidChar: expect.objectContaining({ code: 'U+00A0' }) })]);
    expect(kinds('a⟨U+2003⟩b', 'a\u2003b')).toEqual(['sign']);
    expect(kinds('a⟨ZWSP⟩b', 'a\u200bb')).toEqual(['sign']);
  });

  it('another kind of space, a zero-width character more or less', () => {
    expect(invisibleDifferences('dave\u00a0smith', 'dave smith')).toEqual([
      expect.objectContaining({ kind: 'replaced', at: 5, typedChar: expect.objectContaining({ code: 'U+00A0' }), uidChar: expect.objectContaining({ code: 'U+0020' }) }),
    ]);
    expect(invisibleDifferences('da\u200bve', 'dave')).toEqual([expect.objectContaining({ kind: 'extra', after: 2, typedChar: expect.objectContaining({ code: 'U+200B' }) })]);
    expect(invisibleDifferences('\ufeffdave', 'dave')).toEqual([expect.objectContaining({ kind: 'extra', after: 0 })]);
    expect(invisibleDifferences('dave', 'da\u2060ve')).toEqual([expect.objectContaining({ kind: 'missing', at: 3, uidChar: expect.objectContaining({ code: 'U+2060' }) })]);
  });

  it('is not such a difference: case, a visible character, equal text', () => {
    expect(invisibleDifferences('Dave smith', 'dave smith')).toBeUndefined();
    expect(invisibleDifferences('dave\u00a0Smith', 'dave smith')).toBeUndefined();
    expect(invisibleDifferences('dave smyth', 'dave smith')).toBeUndefined();
    expect(invisibleDifferences('dave smith', 'dave smith')).toBeUndefined();
    // A space missing or added is visible: not said to be invisible.
    expect(invisibleDifferences('davesmith', 'dave smith')).toBeUndefined();
  });
});

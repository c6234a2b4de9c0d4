import { describe, expect, it } from 'vitest';
import { encodeUidSegment, MAX_UID_LENGTH, uidProblem } from './uid';

describe('uidProblem', () => {
  it('accepts what client applications really use, untrimmed', () => {
    for (const uid of ['alice@example.com', ' alice ', 'a/b?c#d%e', 'Zoë 李', '😀', '...', '.a', 'x'.repeat(MAX_UID_LENGTH)]) {
      expect(uidProblem(uid), uid).toBeUndefined();
    }
  });

  it('refuses the empty uid', () => {
    expect(uidProblem('')).toEqual({ code: 'empty' });
  });

  it('refuses a uid longer than any uid, with its length', () => {
    expect(uidProblem('x'.repeat(MAX_UID_LENGTH + 1))).toEqual({ code: 'too-long', length: MAX_UID_LENGTH + 1, max: MAX_UID_LENGTH });
  });

  it('refuses control characters anywhere (line breaks, tabs, DEL, C1)', () => {
    for (const uid of ['alice\n', '\talice', 'al\u0000ice', 'alice\u007f', 'alice\u0085']) {
      expect(uidProblem(uid), JSON.stringify(uid)).toEqual({ code: 'control-character' });
    }
  });

  it('refuses half of a surrogate pair, which has no UTF-8 form', () => {
    for (const uid of ['alice\ud83d', '\ude00alice', 'a\udc00\ud800b']) {
      expect(uidProblem(uid), JSON.stringify(uid)).toEqual({ code: 'invalid-unicode' });
      expect(() => encodeUidSegment(uid)).toThrow(URIError);
    }
  });

  it('refuses "." and "..", which URL parsers treat as path navigation', () => {
    expect(uidProblem('.')).toEqual({ code: 'dot-segment', uid: '.' });
    expect(uidProblem('..')).toEqual({ code: 'dot-segment', uid: '..' });
  });
});

describe('encodeUidSegment', () => {
  it('keeps every uid inside one path segment', () => {
    expect(encodeUidSegment('a/b?c#d%e f')).toBe('a%2Fb%3Fc%23d%25e%20f');
  });
});

import { describe, expect, it } from 'vitest';
import { sendPhrase } from './logout-conformance';
import { wordInEnglish } from './messages';

describe('what a conformance send came to, in words', () => {
  it('draws the uid visibly where it is part of the sentence: a bidi override cannot reverse the rest of it', () => {
    const words = wordInEnglish(sendPhrase({ answer: 'accepted', status: 200, sessions: 'no-session' }, 'evil\u202eexe.txt'));
    expect(words).toBe('accepted (200); no session could be opened for evil⟨RLO⟩exe.txt on the sandbox, so none could end');
    expect(words).not.toContain('\u202e');
  });
});

import { describe, expect, it } from 'vitest';
import { wordInEnglish } from './messages';
import { MAX_REFERENCE_LENGTH, referenceProblem, referenceProblemText, visibleReferenceText } from './reference';

describe('the reference rule (single acts, batches, the console and the CLI)', () => {
  it('refuses control characters and invisible format characters (bidi overrides, zero-width), naming which and where', () => {
    expect(referenceProblem('REQ\u0007bell\u202Eevil')).toEqual({ code: 'reference-invisible', character: 'U+0007', label: 'U+0007', position: 4 });
    expect(referenceProblem('REQ-1\u202Eevil')).toMatchObject({ code: 'reference-invisible', character: 'U+202E', label: 'RLO', position: 6 });
    for (const bad of ['REQ\n2', 'REQ\u200b3', 'REQ\u2066x', 'REQ\u200fx', 'REQ\u00adx', 'REQ\ufeffx', 'REQ\u2028x', 'REQ\u{e0041}x', 'RE\u0085Q']) {
      expect(referenceProblem(bad), JSON.stringify(bad)).toMatchObject({ code: 'reference-invisible' });
    }
    expect(wordInEnglish(referenceProblemText(referenceProblem('REQ-1\u202Eevil')!))).toBe(
      'The reference holds an invisible or control character (RLO, U+202E, character 6): nobody reading it would see it, and some reorder or hide what is shown around them. Type the reference again with its visible characters only.',
    );
  });

  it('accepts what a ticket number holds, spaces of every kind inside included, and trims its ends', () => {
    for (const good of ['REQ-2026-0118', 'DSR 12', 'DSR\u00a012', 'Ticket no. 42 (Zoë)', ' REQ-7 ', '\tREQ-8\n', 'デ-1', '']) expect(referenceProblem(good), JSON.stringify(good)).toBeUndefined();
    expect(referenceProblem(undefined)).toBeUndefined();
  });

  it('still refuses a reference that is too long', () => {
    expect(referenceProblem('R'.repeat(MAX_REFERENCE_LENGTH + 1))).toEqual({ code: 'reference-too-long', length: MAX_REFERENCE_LENGTH + 1, max: MAX_REFERENCE_LENGTH });
  });

  it('draws a reference recorded before the rule with its invisible characters as marks, spaces as they are', () => {
    expect(visibleReferenceText('REQ\u0007bell\u202Eevil')).toBe('REQ⟨U+0007⟩bell⟨RLO⟩evil');
    expect(visibleReferenceText('DSR 12\u00a0b\u200b')).toBe('DSR 12⟨NBSP⟩b⟨ZWSP⟩');
    expect(visibleReferenceText('REQ-1')).toBe('REQ-1');
  });
});

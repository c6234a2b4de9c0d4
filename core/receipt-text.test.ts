import { describe, expect, it } from 'vitest';
import { escapedForm, hasAmbiguousSpacing, isDrawable, printable } from './receipt-text';

describe('what the receipt prints of a value', () => {
  it('draws Latin-1 and the WinAnsi extras as they are', () => {
    for (const text of ['alice@example.org', 'zoë.müller', 'jean dupont', 'mixed /?#% ü+', 'Œuvre – “quoted” … €5', 'ÀÉÎÕÜ ßæøå']) {
      expect(isDrawable(text), text).toBe(true);
      expect(printable(text)).toBe(text);
    }
  });

  it('escapes what the font cannot draw or would misstate: CJK, emoji, other scripts, no-break space, soft hyphen', () => {
    expect(printable('張偉@example.cn')).toBe('"\\u5f35\\u5049@example.cn"');
    expect(printable('👍 user')).toBe('"\\ud83d\\udc4d user"');
    for (const text of ['Ωmega', 'Łódź', 'a\u00a0b', 'a\u00adb', '5\u00b5g', 'x\u0080y']) expect(isDrawable(text), text).toBe(false);
    expect(printable('a\u00a0b')).toBe('"a\\u00a0b"');
  });

  it('the escaped form is plain ASCII and reads back to the exact value', () => {
    for (const text of ['東京ユーザー', '👍🏽', 'quote " and \\ backslash', 'tab\there', 'é']) {
      const escaped = escapedForm(text);
      expect(escaped).toMatch(/^[\x20-\x7e]+$/);
      expect(JSON.parse(escaped)).toBe(text);
    }
  });

  it('flags spacing a reader could miscount', () => {
    expect(hasAmbiguousSpacing(' alice')).toBe(true);
    expect(hasAmbiguousSpacing('alice ')).toBe(true);
    expect(hasAmbiguousSpacing('jean  dupont')).toBe(true);
    expect(hasAmbiguousSpacing('jean dupont')).toBe(false);
  });
});

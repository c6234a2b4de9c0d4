import { describe, expect, it } from 'vitest';
import { isDrawable } from './receipt-text';
import { RECEIPT_LOCALES, RECEIPT_WORDS, type ReceiptWords } from './receipt-words';

/** Every printable text of a language: the strings, and each function called with sample values. */
function textsOf(words: ReceiptWords): Map<string, string> {
  const texts = new Map<string, string>();
  const visit = (path: string, value: unknown): void => {
    if (typeof value === 'string') texts.set(path, value);
    else if (typeof value === 'function') texts.set(path, String((value as (...args: unknown[]) => unknown)(2, 3)));
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) visit(path ? `${path}.${key}` : key, inner);
  };
  visit('', words);
  return texts;
}

describe('receipt words', () => {
  it('English and French have the same keys, none empty', () => {
    const en = textsOf(RECEIPT_WORDS.en);
    const fr = textsOf(RECEIPT_WORDS.fr);
    expect([...fr.keys()].sort()).toEqual([...en.keys()].sort());
    for (const locale of RECEIPT_LOCALES) for (const [key, text] of textsOf(RECEIPT_WORDS[locale])) expect(text.trim(), `${locale}.${key}`).not.toBe('');
  });

  it('French is French: the sentences differ from the English ones', () => {
    const en = textsOf(RECEIPT_WORDS.en);
    const fr = textsOf(RECEIPT_WORDS.fr);
    const same = [...en].filter(([key, text]) => text.length > 12 && fr.get(key) === text).map(([key]) => key);
    expect(same).toEqual([]);
  });

  it('every word is drawable in the receipt’s standard fonts (nothing of ours is ever escaped)', () => {
    for (const locale of RECEIPT_LOCALES) {
      // A no-break space misleads in a value (it looks like a space: core/receipt-text.ts), but French typography asks it of our words.
      for (const [key, text] of textsOf(RECEIPT_WORDS[locale])) expect(isDrawable(text.replaceAll('\u00a0', ' ')), `${locale}.${key}: ${text}`).toBe(true);
    }
  });

  it('French typography: a no-break space before : ; ? ! and inside « »', () => {
    for (const [key, text] of textsOf(RECEIPT_WORDS.fr)) {
      expect(text, `fr.${key}`).not.toMatch(/ [:;?!]|« | »/);
      expect(text, `fr.${key}`).not.toMatch(/[^\u00a0\s(][;?!]|«[^\u00a0]|[^\u00a0]»/);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fr } from './fr';

function leaves(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [p, v] of leaves(value, path)) out.set(p, v);
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const english = leaves(en);
  const french = leaves(fr);

  it('French has exactly the English keys', () => {
    const missing = [...english.keys()].filter((k) => !french.has(k));
    const extra = [...french.keys()].filter((k) => !english.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    expect(english.size).toBeGreaterThan(200);
  });

  it('every string is filled in and keeps the same {{variables}}', () => {
    for (const [key, text] of english) {
      expect(text.trim(), `en ${key}`).not.toBe('');
      const other = french.get(key) ?? '';
      expect(other.trim(), `fr ${key}`).not.toBe('');
      expect(variables(other), `variables of ${key}`).toEqual(variables(text));
    }
  });
});

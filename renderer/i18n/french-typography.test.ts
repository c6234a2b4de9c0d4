import { describe, expect, it } from 'vitest';
import { fr } from './fr';
import { frenchTypographyProblems } from './french-typography';

function leaves(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key));
}

describe('French typography', () => {
  it('finds a plain space, a missing space or a narrow one before : ; ? ! and inside « »', () => {
    expect(frenchTypographyProblems('Nom : valeur')).toHaveLength(1);
    expect(frenchTypographyProblems('Nom: valeur')).toHaveLength(1);
    expect(frenchTypographyProblems('Nom\u202f: valeur')).not.toEqual([]);
    expect(frenchTypographyProblems('Vraiment\u00a0?')).toEqual([]);
    expect(frenchTypographyProblems('« mot »')).toHaveLength(2);
    expect(frenchTypographyProblems('«\u00a0mot\u00a0»')).toEqual([]);
    // Addresses, times, interpolations and JSON examples are not prose.
    expect(frenchTypographyProblems('https://debate.example.com à 10:30, {{name}}, {"sid": "abc"}, $t(a.b)')).toEqual([]);
  });

  it('every French string puts U+00A0 before : ; ? ! and inside « »', () => {
    const problems = leaves(fr).flatMap(([key, text]) => frenchTypographyProblems(text).map((problem) => `${key}: ${problem}`));
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

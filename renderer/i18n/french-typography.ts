/**
 * French typography as Privacy Desk writes it: a non-breaking space (U+00A0, chosen over the narrow U+202F
 * for one consistent spelling that every font draws) before : ; ? ! and inside « ». The rule applies to prose
 * only: interpolations ({{name}}, $t(…)), addresses (https://…), times (10:30) and JSON examples are left out.
 */
const NBSP = '\u00a0';
const NOT_PROSE = /\{\{[^}]*\}\}|\$t\([^)]*\)|[a-z][a-z0-9+.-]*:\/\/\S*|\d:\d|\{"[^}]*\}|"[^"]*"\s*:/gi;

export function frenchTypographyProblems(text: string): string[] {
  const prose = text.replace(NOT_PROSE, (match) => 'x'.repeat(match.length));
  const problems: string[] = [];
  const around = (index: number) => `…${text.slice(Math.max(0, index - 12), index + 3)}…`;
  for (let index = 0; index < prose.length; index += 1) {
    const char = prose[index]!;
    if (':;?!»'.includes(char) && prose[index - 1] !== NBSP) {
      // Doubled marks (?!, !!) need the space only before the first.
      if (!(':;?!'.includes(char) && '?!'.includes(prose[index - 1] ?? ''))) problems.push(`“${char}” needs U+00A0 before it: ${around(index)}`);
    }
    if (char === '«' && prose[index + 1] !== NBSP) problems.push(`“«” needs U+00A0 after it: ${around(index)}`);
    if (char === '\u202f') problems.push(`U+202F found: use U+00A0 everywhere: ${around(index)}`);
  }
  return problems;
}

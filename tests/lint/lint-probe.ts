import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';

// Lints in-memory probes placed at paths inside the repository with the real eslint.config.js.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

const lintRuns = new Map<string, Promise<Linter.LintMessage[]>>();

/** The lint messages for `code` as if it were the file `probe` (each probe and text is linted once). */
export function lintOnce(probe: string, code: string): Promise<Linter.LintMessage[]> {
  const key = `${probe}\n${code}`;
  if (!lintRuns.has(key)) {
    const run = eslint.lintText(code, { filePath: probe }).then(([result]) => {
      const messages = result?.messages ?? [];
      // A probe that does not parse would leave every line without messages, so "allowed" would pass vacuously.
      const fatal = messages.find((m) => m.fatal);
      if (fatal) throw new Error(`${probe} did not parse: ${fatal.message}`);
      return messages;
    });
    lintRuns.set(key, run);
  }
  return lintRuns.get(key)!;
}

/** The same, for a file of the repository as it is on disk. */
export async function lintFile(path: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintFiles([path]);
  return result?.messages ?? [];
}

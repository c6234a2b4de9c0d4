import { describe, expect, it } from 'vitest';
import { lintFile, lintOnce } from './lint-probe';

// Code reaches other code only through static imports the folder table checks: no import() outside a short
// list, no require or createRequire, no code built from strings. And every place that holds code is named by
// a row of the table, so a new folder cannot escape the rules.

const SIDE_DOOR = 'folder-rules/no-side-doors';
const ruleIds = async (probe: string, code: string) =>
  (await lintOnce(probe, code)).filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars').map((m) => m.ruleId);

describe('product code has no side doors', () => {
  const refused = [
    // What a handler would write to send an act without the gate.
    ['handlers/__lint_probe__.ts', "export const acts = async () => (await import('../core/service/service-acts')).createServiceActs;"],
    ['handlers/__lint_probe__.ts', "import { createRequire } from 'node:module';\nexport const acts = createRequire(import.meta.url)('../core/service/service-acts');"],
    ['handlers/__lint_probe__.ts', "import { createRequire } from 'module';\nexport const r = createRequire;"],
    ['handlers/__lint_probe__.ts', "import * as loader from 'node:module';\nexport const acts = loader.createRequire(import.meta.url)('../core/service/service-acts');"],
    ['handlers/__lint_probe__.ts', "export { createRequire } from 'node:module';"],
    ['cli/commands/__lint_probe__.ts', "export const acts = require('../../core/service/service-acts');"],
    ['core/__lint_probe__.ts', "export const where = require.resolve('./service/service-acts');"],
    ['core/batch/__lint_probe__.ts', "export const loader = process.getBuiltinModule('node:module');"],
    ['web-host/__lint_probe__.ts', "const name = '../core/service/service-acts';\nexport const acts = () => import(name);"],
    ['web-host/__lint_probe__.ts', 'export const acts = () => import(`../core/service/${"service-acts"}`);'],
    ['app-runtime/__lint_probe__.ts', "export const acts = new Function('return import(\"../core/service/service-acts\")');"],
    ['electron/shell/__lint_probe__.ts', "export const acts = eval('import(\"../../core/service/service-acts\")');"],
    ['renderer/__lint_probe__.tsx', "export const lazy = () => import('./app-root');"],
    ['shared/__lint_probe__.ts', "export const lazy = () => import('./errors');"],
    ['sandbox/__lint_probe__.ts', "export const lazy = () => import('./server');"],
    ['bin/__lint_probe__.js', "export const lazy = () => import('../dist/cli/main.js');"],
    // A listed lazy load is allowed in its own file only, and only for its own source.
    ['core/receipt-pdf.ts', "export const lazy = () => import('keytar');"],
    ['core/desk.ts', "export const lazy = () => import('pdfkit');"],
  ] as const;

  it.each(refused)('%s: %s', async (probe, code) => {
    const messages = (await lintOnce(probe, code)).filter((m) => m.ruleId === SIDE_DOOR || m.ruleId === 'no-new-func' || m.ruleId === 'no-eval');
    expect(messages.length, 'refused').toBeGreaterThan(0);
    expect(messages.every((m) => m.severity === 2)).toBe(true);
    const own = messages.find((m) => m.ruleId === SIDE_DOOR);
    if (own) {
      expect(own.message).toContain('out of sight of the folder rules and of the erasure gate');
      expect(own.message).toContain('Import it statically');
    }
  });

  it('the handler that builds an authorised DELETE from TokenManager and sendAuthorized is refused by the gate rule', async () => {
    const code = "import { sendAuthorized, TokenManager } from '../core/service/token-manager';\nexport const send = (tokens: TokenManager) => sendAuthorized({} as never, tokens, 'authentication', {} as never);\n";
    const messages = await lintOnce('handlers/__lint_probe__.ts', code);
    expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-imports']);
    expect(messages[0]?.message).toContain('Instead, go through the erasure gate');
  });

  it('each listed lazy load is accepted where it is, as the file on disk has it', async () => {
    for (const file of ['core/keytar-credential-store.ts', 'core/receipt-pdf.ts', 'app-runtime/app-runtime.ts', 'bin/privacy-desk.js']) {
      expect((await lintFile(file)).filter((m) => m.ruleId === SIDE_DOOR), file).toEqual([]);
    }
    expect(await ruleIds('core/receipt-pdf.ts', "export const lazy = () => import('pdfkit');")).toEqual([]);
    expect(await ruleIds('app-runtime/app-runtime.ts', "export const lazy = () => import('../core/keytar-credential-store');")).toEqual([]);
  });

  it('type-only import() loads nothing and is left to the folder rules', async () => {
    expect(await ruleIds('core/__lint_probe__.ts', "export type Keytar = typeof import('keytar');")).toEqual([]);
  });

  const testCode = [
    ['core/__lint_probe__.test.ts', "import { createRequire } from 'node:module';\nexport const load = () => [import('./desk'), createRequire(import.meta.url)('./desk')];"],
    ['renderer/test/__lint_probe__.tsx', "export const load = () => import('../app-root');"],
    ['electron/shell/__lint_probe__.harness.mjs', "import { createRequire } from 'node:module';\nexport const load = createRequire(import.meta.url);"],
    ['tests/integration/__lint_probe__.ts', "export const load = () => import('../../core/service/service-acts');"],
    ['scripts/__lint_probe__.mjs', "import { createRequire } from 'node:module';\nexport const load = createRequire(import.meta.url)('esbuild');"],
    ['e2e/__lint_probe__.ts', "export const load = () => import('../web-host/web-host');"],
  ] as const;
  it.each(testCode)('tests, scripts and harnesses load what they need: %s', async (probe, code) => {
    expect(await ruleIds(probe, code)).toEqual([]);
  });
});

describe('every place that holds code is named by a row of the folder table', () => {
  const PLACE = 'folder-rules/no-unlisted-place';
  const unlisted = ['newfolder/x.ts', 'core2/x.ts', 'newfolder/deep/x.tsx', 'x.ts', 'tool.mjs', 'docs/x.ts', 'security/x.js', 'newfolder/x.test.ts', 'lib/x.cjs'];
  it.each(unlisted)('%s is refused', async (probe) => {
    const messages = await lintOnce(probe, 'export const x = 1;\n');
    expect(messages.map((m) => m.ruleId)).toEqual([PLACE]);
    expect(messages[0]?.severity).toBe(2);
    expect(messages[0]?.message).toContain(`${probe} is in a place no row of the folder table names`);
    expect(messages[0]?.message).toContain('add a row for its folder to FOLDER_RULES');
  });

  const listed = [
    'shared/x.ts', 'core/x.ts', 'core/service/x.ts', 'core/batch/x.ts', 'handlers/x.ts', 'app-runtime/x.ts', 'web-host/x.ts', 'electron/x.ts',
    'electron/preload.ts', 'renderer/x.tsx', 'cli/x.ts', 'sandbox/x.ts', 'tests/x.ts', 'e2e/x.ts', 'scripts/x.mjs', 'bin/x.js', 'vite.config.ts', 'eslint.config.js',
  ];
  it.each(listed)('%s is in a named place', async (probe) => {
    expect((await lintOnce(probe, 'export const x = 1;\n')).map((m) => m.ruleId)).not.toContain(PLACE);
  });
});

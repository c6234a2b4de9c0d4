import { describe, expect, it } from 'vitest';
import { GLOBALS_CASES, IMPORT_CASES, TEST_FILE_CASES, UNRESTRICTED_CASES } from './folder-cases';
import { lintOnce } from './lint-probe';

// Lints in-memory probes placed at paths inside each folder with the real eslint.config.js, so
// every row of docs/ARCHITECTURE.md (Folders) is proven to refuse what it forbids and accept what it allows.

// One probe file per folder case, one import per line group: a handful of lint runs for the whole table.
const FORMS = [
  { name: 'import', line: (source: string, i: number) => `import '${source}'; // ${i}`, ruleId: 'no-restricted-imports' },
  { name: 'import()', line: (source: string, i: number) => `export const probe${i} = () => import('${source}');`, ruleId: 'folder-rules/no-restricted-dynamic-imports' },
  { name: 'import type', line: (source: string, i: number) => `export type Probe${i} = import('${source}').Probe;`, ruleId: 'folder-rules/no-restricted-dynamic-imports' },
] as const;

/** The messages for sources[index] written in each form, linted together with its siblings. */
async function importMessages(probe: string, sources: string[], index: number) {
  const code = sources.flatMap((source, i) => FORMS.map((form) => form.line(source, i))).join('\n');
  // Product code may not use import() at all outside a short list (side-doors.test.ts): here only the folder rules count.
  const messages = (await lintOnce(probe, code)).filter((m) => m.ruleId !== 'folder-rules/no-side-doors');
  return FORMS.map((form, f) => ({ form, messages: messages.filter((m) => m.line === index * FORMS.length + f + 1) }));
}

const importRows = (cases: { where?: string; probe: string; sources: string[] }[]) =>
  cases.flatMap(({ where = '', probe, sources }) => sources.map((source, index) => ({ where, probe, source, sources, index })));

describe('each folder refuses the imports its row forbids', () => {
  const forbidden = importRows([...IMPORT_CASES, ...TEST_FILE_CASES].map((c) => ({ ...c, sources: c.forbidden })));

  it.each(forbidden)('$probe: $source', async ({ where, probe, source, sources, index }) => {
    for (const { form, messages } of await importMessages(probe, sources, index)) {
      expect(messages.map((m) => m.ruleId), `${form.name} '${source}'`).toEqual([form.ruleId]);
      expect(messages[0]?.severity).toBe(2);
      expect(messages[0]?.message).toContain(`${where} must not import`);
      expect(messages[0]?.message).toContain('Instead,');
    }
  });

  it('re-exports are refused like imports', async () => {
    const messages = await lintOnce('core/__lint_probe__.ts', "export * from '../handlers/dispatch';\nexport { x } from '../web-host/web-host';\n");
    expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-imports', 'no-restricted-imports']);
  });
});

describe('each folder accepts the imports its row allows', () => {
  const allowed = importRows([...IMPORT_CASES, ...TEST_FILE_CASES, ...UNRESTRICTED_CASES].map((c) => ({ ...c, sources: c.allowed })));

  it.each(allowed)('$probe: $source', async ({ probe, sources, index }) => {
    for (const { messages } of await importMessages(probe, sources, index)) expect(messages).toEqual([]);
  });
});

describe('each folder sees only the globals of where it runs', () => {
  const globalRows = (pick: 'forbidden' | 'allowed') =>
    GLOBALS_CASES.flatMap(({ where, probe, [pick]: names }) => names.map((name, index) => ({ where, probe, name, names, index })));
  const globalMessages = async (probe: string, names: string[], index: number) => {
    const messages = await lintOnce(probe, names.map((name, i) => `export const probe${i} = () => ${name};`).join('\n'));
    return messages.filter((m) => m.line === index + 1);
  };

  it.each(globalRows('forbidden'))('$probe: $name is refused', async ({ where, probe, names, index }) => {
    const messages = await globalMessages(probe, names, index);
    expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-globals']);
    expect(messages[0]?.severity).toBe(2);
    expect(messages[0]?.message).toContain(`${where} runs in`);
    expect(messages[0]?.message).toContain('instead');
  });

  it.each(globalRows('allowed'))('$probe: $name is allowed', async ({ probe, names, index }) => {
    expect(await globalMessages(probe, names, index)).toEqual([]);
  });

  it('a parameter named like a wrong-side global is not that global', async () => {
    expect(await lintOnce('shared/__lint_probe__.ts', 'export const probe = (process: string) => process;\n')).toEqual([]);
  });
});

describe('only the erasure gate reaches the irreversible acts', () => {
  // The probes import without using: only the import rules matter here.
  const importMessagesOf = async (probe: string, code: string) =>
    (await lintOnce(probe, `${code}\n`)).filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars' && m.ruleId !== 'folder-rules/no-side-doors');
  const refused = [
    ['core/desk.ts', "import { connectToService } from './service/service-client';"],
    ['core/desk.ts', "import { createServiceActs } from './service/service-acts';"],
    ['core/batch/run-batch.ts', "import { sendAuthorized, TokenManager } from '../service/token-manager';"],
    ['core/desk.ts', "import { sendRequest } from './service/http';"],
    ['handlers/__lint_probe__.ts', "import type { ServiceActs } from '../core/service/service-acts';"],
    ['cli/commands/users.ts', "import { connectToService } from '../../core/service/service-client';"],
    ['app-runtime/__lint_probe__.ts', "export { connectToService } from '../core/service/service-client';"],
    ['electron/main.ts', "import { connectToService as c } from '../core/service/service-client';"],
    ['web-host/__lint_probe__.ts', "import('../core/service/service-acts');"],
  ] as const;
  it.each(refused)('%s: %s', async (probe, code) => {
    const messages = await importMessagesOf(probe, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('Instead, go through the erasure gate');
  });

  const accepted = [
    ['core/service/erasure-gate.ts', "import { connectToService } from './service-client';\nimport type { ServiceActs } from './service-acts';"],
    ['core/service/service-client.ts', "import { createServiceActs } from './service-acts';"],
    ['core/desk.ts', "import { openGatedConnection, type ServiceConnection } from './service/erasure-gate';"],
    ['cli/commands/logout.ts', "import { logoutRefusal } from '../../core/service/erasure-gate';"],
    ['tests/integration/helpers.ts', "import { connectToService } from '../../core/service/service-client';"],
  ] as const;
  it.each(accepted)('%s: %s', async (probe, code) => {
    expect(await importMessagesOf(probe, code)).toEqual([]);
  });
});

describe('the CLI takes the process from runCli', () => {
  it('refuses `process` in cli/ except in cli/main.ts', async () => {
    const code = 'export const out = process.stdout;\n';
    const refused = await lintOnce('cli/commands/users.ts', code);
    expect(refused.map((m) => m.ruleId)).toEqual(['no-restricted-globals']);
    expect(refused[0]?.message).toContain('runCli(argv, io)');
    expect(await lintOnce('cli/main.ts', code)).toEqual([]);
  });
});

/**
 * The folder table of docs/ARCHITECTURE.md (Folders) as lint cases, written out by hand (not read from
 * eslint.config.js) so a rule that drifts from the table makes a test fail.
 * Each probe is a file path inside the folder; the imports are relative to that path.
 */
export interface ImportCase {
  /** How the lint messages name the folder. */
  where: string;
  probe: string;
  /** One import per forbidden target. */
  forbidden: string[];
  allowed: string[];
}

const NOT_CODE_FROM_DEPTH_1 = ['../tests/integration/helpers', '../e2e/support', '../scripts/summarise-tests.mjs', 'vitest'];
const NOT_CODE_FROM_DEPTH_2 = ['../../tests/integration/helpers', '../../e2e/support', '../../scripts/summarise-tests.mjs', 'vitest'];
const NODE_BUILTINS = ['node:fs', 'fs', 'path', 'util', 'os', 'crypto', 'http', 'events', 'buffer', 'stream', 'url', 'child_process', 'fs/promises'];

export const IMPORT_CASES: ImportCase[] = [
  {
    where: 'shared/',
    probe: 'shared/__lint_probe__.ts',
    forbidden: [
      ...NODE_BUILTINS,
      'electron', 'keytar', 'react', 'react-dom/client', 'fastify', '@fastify/static', 'jose', 'commander',
      '../core/desk', '../handlers/dispatch', '../app-runtime/app-runtime', '../web-host/web-host', '../electron/main',
      '../renderer/app', '../cli/main', '../sandbox/server', ...NOT_CODE_FROM_DEPTH_1,
    ],
    allowed: ['zod', './errors', '../shared/uid'],
  },
  {
    where: 'core/',
    probe: 'core/__lint_probe__.ts',
    forbidden: [
      'electron', 'react', 'react-dom/client', 'fastify', '@fastify/static',
      '../renderer/app', '../handlers/dispatch', '../app-runtime/app-runtime', '../web-host/web-host', '../electron/main',
      '../cli/main', '../sandbox/server', ...NOT_CODE_FROM_DEPTH_1,
    ],
    allowed: ['node:fs', 'fs', 'keytar', 'jose', 'zod', 'proper-lockfile', '../shared/errors', './desk'],
  },
  {
    where: 'handlers/',
    probe: 'handlers/__lint_probe__.ts',
    forbidden: [
      'electron', 'react', 'fastify', '@fastify/formbody',
      '../renderer/app', '../web-host/web-host', '../app-runtime/app-runtime', '../electron/main', '../cli/main',
      '../sandbox/server', ...NOT_CODE_FROM_DEPTH_1,
    ],
    allowed: ['../shared/contract', '../core/desk', 'node:path', 'zod', './dispatch'],
  },
  {
    where: 'app-runtime/',
    probe: 'app-runtime/__lint_probe__.ts',
    forbidden: ['electron', 'react', '../renderer/app', '../web-host/web-host', '../electron/main', '../cli/main', ...NOT_CODE_FROM_DEPTH_1],
    allowed: ['../shared/errors', '../core/desk', '../handlers/create-bridge-handlers', '../sandbox/server', 'node:net', './bundled-sandbox'],
  },
  {
    where: 'web-host/',
    probe: 'web-host/__lint_probe__.ts',
    forbidden: ['electron', 'react', '../renderer/app', '../sandbox/server', '../electron/main', '../cli/main', ...NOT_CODE_FROM_DEPTH_1],
    allowed: ['fastify', '@fastify/static', '../shared/errors', '../core/credential-store', '../handlers/dispatch', '../app-runtime/app-runtime', 'node:http'],
  },
  {
    where: 'electron/ (main process)',
    probe: 'electron/shell/__lint_probe__.ts',
    forbidden: [
      'fastify', '@fastify/static', 'react',
      '../../renderer/app', '../../web-host/web-host', '../../sandbox/server', '../../cli/main', ...NOT_CODE_FROM_DEPTH_2,
    ],
    allowed: ['electron', '../../shared/errors', '../../core/data-dir', '../../handlers/dispatch', '../../app-runtime/app-runtime', 'node:path', './ipc'],
  },
  {
    where: 'electron/ (main process)',
    probe: 'electron/main.ts',
    forbidden: ['fastify', '../renderer/app', '../web-host/web-host', '../sandbox/server', '../cli/main'],
    allowed: ['electron', '../app-runtime/app-runtime', './shell/window'],
  },
  {
    where: 'electron/preload.ts',
    probe: 'electron/preload.ts',
    forbidden: [
      'node:path', 'path', 'zod', 'jose', 'react',
      '../shared/contract', '../shared/errors', '../core/desk', '../handlers/dispatch', '../app-runtime/app-runtime', './shell/ipc', './main',
    ],
    allowed: ['electron', '../shared/bridge-methods'],
  },
  {
    where: 'renderer/',
    probe: 'renderer/__lint_probe__.tsx',
    forbidden: [
      ...NODE_BUILTINS, 'electron', 'keytar', 'fastify', '@fastify/static',
      '../core/desk', '../handlers/dispatch', '../app-runtime/app-runtime', '../web-host/web-host', '../electron/preload',
      '../cli/main', '../sandbox/server', ...NOT_CODE_FROM_DEPTH_1,
    ],
    allowed: ['react', 'react-dom/client', '@tanstack/react-query', 'zustand', 'i18next', '../shared/contract', './app-root', './styles/base.css'],
  },
  {
    where: 'renderer/',
    probe: 'renderer/features/users/__lint_probe__.tsx',
    forbidden: ['node:fs', '../../../core/desk', '../../../handlers/dispatch', '../../../electron/preload', '../../../sandbox/server'],
    allowed: ['../../../shared/users', '../../bridge/bridge-context', './users-table'],
  },
  {
    where: 'cli/',
    probe: 'cli/commands/__lint_probe__.ts',
    forbidden: [
      'electron', 'react', 'fastify', '@fastify/static',
      '../../renderer/app', '../../handlers/dispatch', '../../app-runtime/app-runtime', '../../web-host/web-host',
      '../../electron/main', '../../sandbox/server', ...NOT_CODE_FROM_DEPTH_2,
    ],
    allowed: ['commander', 'node:readline', '../../core/desk', '../../shared/errors', '../output'],
  },
  {
    where: 'sandbox/',
    probe: 'sandbox/routes/__lint_probe__.ts',
    forbidden: [
      'electron', 'react',
      '../../core/desk', '../../handlers/dispatch', '../../app-runtime/app-runtime', '../../web-host/web-host',
      '../../electron/main', '../../renderer/app', '../../cli/main', ...NOT_CODE_FROM_DEPTH_2,
    ],
    allowed: ['fastify', '@fastify/formbody', 'jose', 'zod', 'node:crypto', '../../shared/uid', '../context', './pagination'],
  },
];

/** Test files and test helpers may also import vitest, sandbox/ and tests/ helpers — and nothing else extra. */
export const TEST_FILE_CASES: ImportCase[] = [
  { where: 'shared/', probe: 'shared/__lint_probe__.test.ts', forbidden: ['node:fs', '../core/desk'], allowed: ['vitest', '../sandbox/server', '../tests/integration/helpers'] },
  { where: 'core/', probe: 'core/__lint_probe__.test.ts', forbidden: ['electron', '../handlers/dispatch'], allowed: ['vitest', '../sandbox/server', '../tests/integration/helpers'] },
  { where: 'handlers/', probe: 'handlers/__lint_probe__.test.ts', forbidden: ['../web-host/web-host'], allowed: ['vitest', '../sandbox/server'] },
  { where: 'web-host/', probe: 'web-host/__lint_probe__.test.ts', forbidden: ['../renderer/app'], allowed: ['vitest', '../sandbox/server'] },
  { where: 'electron/ (main process)', probe: 'electron/shell/__lint_probe__.test.ts', forbidden: ['../../renderer/app'], allowed: ['vitest', '../../sandbox/server'] },
  { where: 'renderer/', probe: 'renderer/__lint_probe__.test.tsx', forbidden: ['node:fs', '../core/desk'], allowed: ['vitest', '@testing-library/react'] },
  { where: 'renderer/', probe: 'renderer/test/__lint_probe__.tsx', forbidden: ['../../core/desk'], allowed: ['vitest', '@testing-library/react'] },
  { where: 'cli/', probe: 'cli/__lint_probe__.test.ts', forbidden: ['../renderer/app'], allowed: ['vitest', '../sandbox/server', '../tests/cli/cli-harness'] },
  { where: 'sandbox/', probe: 'sandbox/__lint_probe__.test.ts', forbidden: ['../core/desk'], allowed: ['vitest', './server'] },
];

/** tests/, e2e/, scripts/ and root files may import anything. */
export const UNRESTRICTED_CASES: { probe: string; allowed: string[] }[] = [
  { probe: 'tests/integration/__lint_probe__.test.ts', allowed: ['../../core/desk', '../../electron/main', '../../renderer/app', '../../sandbox/server', 'electron', 'node:fs'] },
  { probe: 'e2e/__lint_probe__.ts', allowed: ['../web-host/web-host', '../sandbox/server', '@playwright/test', 'node:fs'] },
  { probe: 'scripts/__lint_probe__.mjs', allowed: ['../electron/main', 'esbuild', 'node:child_process'] },
  { probe: '__lint_probe__.config.ts', allowed: ['./renderer/app', './core/desk', 'vite', 'node:path'] },
];

export interface GlobalsCase {
  where: string;
  probe: string;
  forbidden: string[];
  allowed: string[];
}

export const GLOBALS_CASES: GlobalsCase[] = [
  {
    where: 'shared/',
    probe: 'shared/__lint_probe__.ts',
    forbidden: ['window', 'document', 'process', 'Buffer', 'require', 'global', '__dirname', 'navigator', 'localStorage', 'setImmediate', 'HTMLElement'],
    allowed: ['URL', 'TextEncoder', 'console', 'setTimeout', 'fetch', 'AbortController', 'structuredClone', 'JSON'],
  },
  {
    where: 'renderer/',
    probe: 'renderer/features/__lint_probe__.tsx',
    forbidden: ['process', 'require', 'Buffer', '__dirname', '__filename', 'global', 'module', 'setImmediate'],
    allowed: ['window', 'document', 'navigator', 'localStorage', 'URL', 'console', 'matchMedia'],
  },
  ...['core/', 'handlers/', 'app-runtime/', 'web-host/', 'cli/', 'sandbox/'].map((where) => ({
    where,
    probe: `${where}__lint_probe__.ts`,
    forbidden: ['window', 'document', 'HTMLElement', 'alert'],
    // cli/ takes the process from runCli (only cli/main.ts sees it): tested apart in boundaries.test.ts.
    allowed: ['Buffer', 'setImmediate', 'URL', 'fetch', 'console', ...(where === 'cli/' ? [] : ['process'])],
  })),
  {
    where: 'electron/ (main process)',
    probe: 'electron/shell/__lint_probe__.ts',
    forbidden: ['window', 'document'],
    allowed: ['process', '__dirname'],
  },
];

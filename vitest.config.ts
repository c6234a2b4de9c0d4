import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const NODE_FOLDERS = ['shared', 'core', 'handlers', 'app-runtime', 'web-host', 'electron', 'sandbox', 'cli', 'tests'];
const NODE_TESTS = NODE_FOLDERS.map((folder) => `${folder}/**/*.test.ts`);
const KEYCHAIN_TESTS = '**/*.keychain.test.ts';

/**
 * Test files that start other programs (the built CLI, tsx, npm, git, esbuild): they mostly wait for them, so
 * they run in a project of their own, each file in its own process. Found by what they import, so a new one
 * needs no entry here.
 */
const PROCESS_TESTS = NODE_FOLDERS.flatMap((folder) => readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((name) => join(folder, name)))
  .filter((file) => file.endsWith('.test.ts') && !file.endsWith('.keychain.test.ts'))
  .filter((file) => /from 'node:child_process'|\brunBin\(/.test(readFileSync(file, 'utf8')));

/**
 * Vitest's default on two cores is one worker: every file one after the other, with the CPU idle whenever a
 * test waits for a child process, the sandbox or a timer. Three keep both cores busy (the whole run: about
 * 100 s instead of 250 s on two cores).
 */
const maxWorkers = 3;

/** Where files share a worker's modules, globals and environment variables a test stubs are put back before the next test. */
const PUT_BACK = { unstubGlobals: true, unstubEnvs: true } as const;

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: NODE_TESTS,
          exclude: [KEYCHAIN_TESTS, 'node_modules/**', ...PROCESS_TESTS],
          // One set of modules per worker, not per file: loading them again for every file was two thirds of the
          // project's CPU time.
          isolate: false,
          ...PUT_BACK,
          pool: 'threads',
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'processes',
          environment: 'node',
          include: PROCESS_TESTS,
          pool: 'forks',
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'keychain',
          environment: 'node',
          include: [KEYCHAIN_TESTS],
          exclude: ['node_modules/**'],
          // One file at a time: the files share one test keyring, and two processes at once were seen to lose an item
          // under each other ('No such secret item') in gnome-keyring; each file's own tests pass either way.
          maxWorkers: 1,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          // One jsdom and one set of modules per worker, not per file (half the project's CPU time): the set-up file
          // puts back after every test what a test may change (the DOM, storage, every store, timers, mocks, globals).
          isolate: false,
          ...PUT_BACK,
          setupFiles: ['renderer/test/setup.ts'],
          pool: 'threads',
          testTimeout: 20_000,
        },
      },
    ],
  },
});

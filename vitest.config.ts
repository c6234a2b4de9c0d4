import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'core/**/*.test.ts', 'handlers/**/*.test.ts', 'app-runtime/**/*.test.ts', 'web-host/**/*.test.ts', 'electron/**/*.test.ts', 'sandbox/**/*.test.ts', 'cli/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['**/*.keychain.test.ts', 'node_modules/**'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'keychain',
          environment: 'node',
          include: ['**/*.keychain.test.ts'],
          exclude: ['node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});

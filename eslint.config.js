import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Import direction (docs/ARCHITECTURE.md): shared/ imports neither side;
// the renderer never reaches into the main process; the core never loads Electron.
const sharedBans = {
  patterns: [
    { group: ['**/electron/**', '**/renderer/**', '**/sandbox/**', '**/cli/**'], message: 'shared/ is imported by both sides and imports neither.' },
    { group: ['electron', 'node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'child_process', 'keytar', 'react', 'react-dom'], message: 'shared/ stays free of Node, DOM-framework and Electron imports.' },
  ],
};
const rendererBans = {
  patterns: [
    { group: ['**/electron/**', '**/sandbox/**', '**/cli/**'], message: 'The renderer talks to the main process only through the bridge contract in shared/.' },
    { group: ['electron', 'node:*', 'fs', 'path', 'os', 'child_process', 'keytar'], message: 'The renderer runs without Node or Electron.' },
  ],
};
const coreBans = {
  patterns: [
    { group: ['electron'], message: 'core/ is UI-free and runs in plain Node; only the Electron shell imports electron.' },
    { group: ['**/renderer/**'], message: 'The core never imports the renderer.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  { files: ['shared/**'], rules: { 'no-restricted-imports': ['error', sharedBans] } },
  { files: ['renderer/**'], rules: { 'no-restricted-imports': ['error', rendererBans] } },
  { files: ['core/**', 'handlers/**'], rules: { 'no-restricted-imports': ['error', coreBans] } },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'tests/**'],
    rules: { 'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name='only']", message: 'No focused tests: .only hides the rest of the suite.' }] },
  },
);

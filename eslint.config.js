import { builtinModules } from 'node:module';
import { relative, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The folder table (docs/ARCHITECTURE.md (Folders)): what each folder may import and which globals
// it sees, enforced below and proven by tests/lint/boundaries.test.ts.

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anyOf = (names) => `(?:${names.map(escapeRegex).join('|')})`;

/* ---------- What an import can point at: one regex per target ---------- */

const NODE_BUILTIN_NAMES = [...new Set(builtinModules.map((name) => name.split('/')[0]))];
const NODE_BUILTIN = `node:|${anyOf(NODE_BUILTIN_NAMES)}(?:/|$)`;
const target = (label, regex, extra = {}) => ({ label, regex, ...extra });

const nodeBuiltins = target('Node built-ins', `^(?:${NODE_BUILTIN})`);
const electronPackage = target('the electron package', '^electron(?:/|$)');
const keytar = target('keytar', '^keytar(?:/|$)');
const react = target('react or react-dom', '^react(?:-dom)?(?:/|$)');
const fastify = target('fastify or @fastify/*', '^(?:fastify(?:/|$)|@fastify/)');
const zod = target('zod', '^zod(?:/|$)');
const vitest = target('vitest', '^vitest(?:/|$)', {
  testsMayImport: true,
  instead: 'only *.test.ts(x) files and test helpers use vitest',
});

/** Every npm package except `allowed` (Node built-ins have their own target). */
const packagesExcept = (allowed) =>
  target(`packages other than ${allowed.join(', ')}`, `^(?!\\.|/|${NODE_BUILTIN}|${anyOf(allowed)}(?:/|$))`, {
    forTests: () => packagesExcept([...allowed, 'vitest']),
  });

/** Relative imports other than the listed paths (with or without an extension). */
const filesExcept = (allowed) =>
  target(`files other than ${allowed.join(', ')}`, `^(?!${anyOf(allowed)}(?:\\.[cm]?[jt]sx?)?$)\\.`);

/** A top-level project folder, reached by a relative import from any depth (../x, ../../x…). */
const folder = (name, extra = {}) => target(`${name}/`, `^(?:\\.\\./)+${escapeRegex(name)}(?:/|$)`, extra);
const FOLDER = {
  shared: folder('shared'),
  core: folder('core'),
  handlers: folder('handlers'),
  appRuntime: folder('app-runtime'),
  webHost: folder('web-host'),
  electron: folder('electron'),
  renderer: folder('renderer'),
  cli: folder('cli'),
  sandbox: folder('sandbox', {
    testsMayImport: true,
    instead: 'only tests and app-runtime/ (which bundles it) start the sandbox; reach it over HTTP like the real service',
  }),
  tests: folder('tests', { testsMayImport: true, instead: 'product code never depends on test code; move the helper next to its user' }),
  e2e: folder('e2e', { instead: 'product code never depends on test code; move the helper next to its user' }),
  scripts: folder('scripts', { instead: 'product code never depends on build scripts; move the helper next to its user' }),
};
const NOT_CODE = [FOLDER.tests, FOLDER.e2e, FOLDER.scripts, vitest];

// The erasure gate by construction: HTTP, tokens and the service's irreversible acts live in
// core/service/, whose only door is core/service/erasure-gate.ts (it validates, confirms and audits
// first). Any other file of that folder is out of reach from outside it (erasure-gate.test.ts reads the import graph too).
const GATE_INSTEAD = 'go through the erasure gate (Desk.erase, Desk.sendLogout, or what core/service/erasure-gate.ts exports), which validates, confirms and audits first';
const GATE_ONLY = [
  target('core/service/ other than its door, erasure-gate.ts', '(?:^|/)service/(?!erasure-gate(?:\\.[cm]?[jt]sx?)?$)[^/]+$', { instead: GATE_INSTEAD, testsMayImport: true }),
];
const GATE_FILES = ['core/service/**'];

/* ---------- Which globals a folder sees ---------- */
// typescript-eslint leaves undefined names to the compiler (no-undef is off for TS), and our one
// tsconfig knows both DOM and Node, so a folder's wrong-side globals are listed and refused here.

const names = (...sets) => new Set(sets.flatMap((set) => Object.keys(set)));
const minus = (set, ...others) => [...set].filter((name) => !others.some((other) => other.has(name)));
const ES = names(globals.es2023);
const NODE = names(globals.node, globals.nodeBuiltin);
const BROWSER = names(globals.browser);
const BOTH = names(globals['shared-node-browser']);
// Node 20 (our floor) has no navigator or Web Storage, although `globals` lists them as shared.
const NOT_IN_NODE_20 = ['navigator', 'localStorage', 'sessionStorage'];

const RUNTIMES = {
  both: {
    restricted: [...minus(names(globals.browser, globals.node, globals.nodeBuiltin), ES, BOTH), ...NOT_IN_NODE_20],
    message: (where, name) =>
      `${where} runs in the browser and in Node, and \`${name}\` exists in only one of them. Take the value as a parameter from the caller instead.`,
  },
  browser: {
    restricted: minus(NODE, BROWSER, ES),
    message: (where, name) =>
      `${where} runs in Chromium without Node, so \`${name}\` does not exist there. Ask the main process through the bridge (shared/contract.ts) instead.`,
  },
  node: {
    restricted: minus(BROWSER, NODE, ES),
    message: (where, name) =>
      `${where} runs in Node, where the browser global \`${name}\` does not exist. Use the Node API instead, or take the value as a parameter.`,
  },
};

/* ---------- The table ---------- */

const NODE_FOLDER_BANS = [electronPackage, react];
const FOLDER_RULES = [
  {
    where: 'shared/',
    files: ['shared/**'],
    runsIn: 'both',
    why: 'it runs in the browser and in Node and depends on nothing but zod',
    instead: 'keep shared/ to types, zod schemas and pure functions, and do the Node, UI or service work in the folder that calls it',
    forbid: [nodeBuiltins, packagesExcept(['zod']), ...Object.values(FOLDER).filter((f) => f !== FOLDER.shared)],
  },
  {
    where: 'core/',
    files: ['core/**'],
    runsIn: 'node',
    why: 'it is the UI-free core in plain Node, below every front end',
    instead: 'let handlers/, app-runtime/, web-host/, electron/ or cli/ call the core, and move what they share into core/ or shared/',
    ignores: GATE_FILES,
    forbid: [...NODE_FOLDER_BANS, fastify, FOLDER.renderer, FOLDER.handlers, FOLDER.appRuntime, FOLDER.webHost, FOLDER.electron, FOLDER.cli, FOLDER.sandbox, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'core/ (the erasure gate)',
    files: GATE_FILES,
    runsIn: 'node',
    why: 'it is the UI-free core in plain Node, below every front end',
    instead: 'let handlers/, app-runtime/, web-host/, electron/ or cli/ call the core, and move what they share into core/ or shared/',
    forbid: [...NODE_FOLDER_BANS, fastify, FOLDER.renderer, FOLDER.handlers, FOLDER.appRuntime, FOLDER.webHost, FOLDER.electron, FOLDER.cli, FOLDER.sandbox, ...NOT_CODE],
  },
  {
    where: 'handlers/',
    files: ['handlers/**'],
    runsIn: 'node',
    why: 'it turns bridge calls into core calls and knows no transport',
    instead: 'keep transport code in web-host/ or electron/, and reach the service only through core/',
    forbid: [...NODE_FOLDER_BANS, fastify, FOLDER.renderer, FOLDER.webHost, FOLDER.appRuntime, FOLDER.electron, FOLDER.cli, FOLDER.sandbox, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'app-runtime/',
    files: ['app-runtime/**'],
    runsIn: 'node',
    why: 'it is the runtime both transports start, below web-host/ and electron/',
    instead: 'let web-host/ or electron/ start the runtime, and pass anything transport-specific in as a parameter',
    forbid: [...NODE_FOLDER_BANS, FOLDER.renderer, FOLDER.webHost, FOLDER.electron, FOLDER.cli, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'web-host/',
    files: ['web-host/**'],
    runsIn: 'node',
    why: 'it is the loopback HTTP transport in plain Node',
    instead: 'start the app through app-runtime/ and serve the built renderer from dist/ as static files',
    forbid: [...NODE_FOLDER_BANS, FOLDER.renderer, FOLDER.sandbox, FOLDER.electron, FOLDER.cli, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'electron/ (main process)',
    files: ['electron/**'],
    ignores: ['electron/preload.ts'],
    runsIn: 'node',
    why: 'it is the thin Electron shell over app-runtime/',
    instead: 'start the app through app-runtime/ and reach the window only over IPC',
    forbid: [react, fastify, FOLDER.renderer, FOLDER.webHost, FOLDER.sandbox, FOLDER.cli, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'electron/preload.ts',
    files: ['electron/preload.ts'],
    runsIn: null, // sandboxed preload: browser globals plus Electron's small process/Buffer shim
    why: 'it runs sandboxed, with only electron and the bridge method names',
    instead: 'import only electron and ../shared/bridge-methods (zod-free), and leave parsing and everything else to the main process',
    forbid: [nodeBuiltins, zod, packagesExcept(['electron', 'zod']), filesExcept(['../shared/bridge-methods'])],
  },
  {
    where: 'renderer/',
    files: ['renderer/**'],
    runsIn: 'browser',
    why: 'it is the React console in Chromium, without Node',
    instead: 'call the main process through the bridge (shared/contract.ts, renderer/bridge/)',
    forbid: [nodeBuiltins, electronPackage, keytar, fastify, FOLDER.core, FOLDER.handlers, FOLDER.appRuntime, FOLDER.webHost, FOLDER.electron, FOLDER.cli, FOLDER.sandbox, ...NOT_CODE],
  },
  {
    where: 'cli/',
    files: ['cli/**'],
    ignores: ['cli/main.ts'],
    runsIn: 'node',
    // Streams, env and stdin come in through runCli's io, so the CLI runs in-process in tests.
    alsoRestricted: [{ name: 'process', message: 'cli/ takes stdout, stderr, env and stdin from runCli(argv, io) (cli/io.ts); only cli/main.ts hands it the real process.' }],
    why: 'it is the command-line front end over the core',
    instead: 'reach the service through the Desk in core/, as every front end does',
    forbid: [...NODE_FOLDER_BANS, fastify, FOLDER.renderer, FOLDER.handlers, FOLDER.appRuntime, FOLDER.webHost, FOLDER.electron, FOLDER.sandbox, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'cli/',
    files: ['cli/main.ts'],
    runsIn: 'node',
    why: 'it is the command-line front end over the core',
    instead: 'reach the service through the Desk in core/, as every front end does',
    forbid: [...NODE_FOLDER_BANS, fastify, FOLDER.renderer, FOLDER.handlers, FOLDER.appRuntime, FOLDER.webHost, FOLDER.electron, FOLDER.sandbox, ...NOT_CODE, ...GATE_ONLY],
  },
  {
    where: 'sandbox/',
    files: ['sandbox/**'],
    runsIn: 'node',
    why: 'it imitates the service as a separate program and shares only shared/ with the app',
    instead: 'write the service behaviour inside sandbox/ (it imitates the service, not our client)',
    forbid: [...NODE_FOLDER_BANS, FOLDER.core, FOLDER.handlers, FOLDER.appRuntime, FOLDER.webHost, FOLDER.electron, FOLDER.renderer, FOLDER.cli, ...NOT_CODE],
  },
];

// Test files and test helpers may also import vitest, sandbox/ and tests/ helpers; nothing else changes.
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/*.harness.mjs'];

/* ---------- Every place is named: a file in a folder no row covers is an error ---------- */
// Tests, end-to-end specs, build scripts, the installed command and the tools' config files may import anything.
const UNRESTRICTED_PLACES = ['tests/**', 'e2e/**', 'scripts/**', 'bin/**', '*.config.js', '*.config.mjs', '*.config.ts'];
const CODE_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs', '**/*.jsx', '**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];
const KNOWN_PLACES = [...FOLDER_RULES.flatMap((rule) => rule.files), ...UNRESTRICTED_PLACES];

const relativePath = (context) => relative(context.cwd, context.filename).split(sep).join('/');

const unlistedPlaceRule = {
  meta: { type: 'problem', docs: { description: 'Refuses code in a place the folder table does not name' }, schema: [] },
  create(context) {
    return {
      Program(node) {
        context.report({
          node,
          loc: { line: 1, column: 0 },
          message: `${relativePath(context)} is in a place no row of the folder table names, so no import or globals rule would check it. Put it in an existing folder, or add a row for its folder to FOLDER_RULES in eslint.config.js (and to docs/ARCHITECTURE.md, Folders) first.`,
        });
      },
    };
  },
};

/* ---------- No side doors: code is loaded only by the static imports the table checks ---------- */
// import(), require() and createRequire() resolve at run time, out of sight of the folder table and of the
// erasure gate's one door (core/service/erasure-gate.ts). Product code loads lazily only what is listed
// here, each for its reason (`source` is the import()'s argument as written); core/service/erasure-gate.test.ts
// lists them too and finds them in the import graph. Tests, e2e/, scripts/ and *.harness.mjs files load what they need.
const LAZY_LOADS = [
  { file: 'core/keytar-credential-store.ts', source: "'keytar'", why: 'keytar is a native module: loaded when the keychain is opened, so a machine where it cannot load still starts (session memory)' },
  { file: 'core/receipt-pdf.ts', source: "'pdfkit'", why: "a receipt is rare: the CLI's start-up does not pay for the PDF library" },
  { file: 'core/requests/holidays.ts', source: "'date-holidays'", why: "only the register's clock needs the holiday calendar (about 150 ms and 30 MB): the CLI's start-up does not pay for it" },
  { file: 'core/team/team-stores.ts', source: "'./team-open'", why: "team mode's side (pg and the team stores) is loaded when a team database is first needed: local mode's start-up does not pay for it" },
  { file: 'app-runtime/app-runtime.ts', source: "'../core/keytar-credential-store'", why: 'the keychain store (and keytar with it) is loaded only when no store is injected' },
  { file: 'bin/privacy-desk.js', source: 'bundle.href', why: 'the installed command runs the built CLI bundle, whose path is known only at run time' },
];
const PRODUCT_FILES = [...FOLDER_RULES.flatMap((rule) => rule.files), 'bin/**'];
const SIDE_DOOR_INSTEAD = 'Import it statically, so the folder rules and the erasure gate see it (core/service/ is reached only through core/service/erasure-gate.ts)';
const MODULE_BUILTIN = /^(?:node:)?module$/;
// Ways to load a module from a call: require(…), require.resolve(…), x.require(…), createRequire(…), process.getBuiltinModule(…).
const LOADER_NAMES = new Set(['require', 'createRequire', 'getBuiltinModule']);

const sideDoorRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses import() outside LAZY_LOADS, require(), createRequire() and node:module in product code' },
    schema: [{ type: 'object', properties: { lazyLoads: { type: 'array' } }, additionalProperties: false }],
  },
  create(context) {
    const file = relativePath(context);
    const allowed = (context.options[0]?.lazyLoads ?? []).filter((load) => load.file === file).map((load) => load.source);
    const report = (node, what) => context.report({ node, message: `${file} must not use ${what}: it loads code at run time, out of sight of the folder rules and of the erasure gate. ${SIDE_DOOR_INSTEAD}.` });
    const checkModuleSource = (node) => {
      if (node.source && typeof node.source.value === 'string' && MODULE_BUILTIN.test(node.source.value)) report(node, `'${node.source.value}' (createRequire)`);
    };
    const loaderName = (callee) => {
      if (callee.type === 'Identifier') return callee.name;
      if (callee.type === 'MemberExpression') {
        if (callee.object.type === 'Identifier' && callee.object.name === 'require') return 'require';
        if (!callee.computed && callee.property.type === 'Identifier') return callee.property.name;
        if (callee.computed && callee.property.type === 'Literal') return String(callee.property.value);
      }
      return undefined;
    };
    return {
      ImportExpression(node) {
        const source = context.sourceCode.getText(node.source);
        if (!allowed.includes(source)) {
          context.report({
            node,
            message: `${file} must not use import(${source}): a dynamic import loads code at run time, out of sight of the folder rules and of the erasure gate. ${SIDE_DOOR_INSTEAD}; a lazy load that must stay goes into LAZY_LOADS in eslint.config.js with its reason.`,
          });
        }
      },
      ImportDeclaration: checkModuleSource,
      ExportNamedDeclaration: checkModuleSource,
      ExportAllDeclaration: checkModuleSource,
      CallExpression(node) {
        const name = loaderName(node.callee);
        if (name && LOADER_NAMES.has(name)) report(node, `${name}()`);
      },
    };
  },
};
const forTests = (targets) => targets.filter((t) => !t.testsMayImport).map((t) => t.forTests?.() ?? t);

const importPatterns = (rule, targets) => ({
  patterns: targets.map((t) => ({
    regex: t.regex,
    ...(t.importNames ? { importNames: t.importNames } : {}),
    caseSensitive: true,
    message: `${rule.where} must not import ${t.label}: ${rule.why}. Instead, ${t.instead ?? rule.instead}.`,
  })),
});
const dynamicImportPatterns = (rule, targets) => importPatterns(rule, targets.filter((t) => !t.staticOnly));

/* ---------- import() and import('x').Type, which no-restricted-imports does not see ---------- */

const dynamicImportRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Applies no-restricted-imports regex patterns to import() and import types' },
    schema: [{ type: 'object', properties: { patterns: { type: 'array' } }, additionalProperties: false }],
  },
  create(context) {
    const patterns = (context.options[0]?.patterns ?? []).map((p) => ({ ...p, matcher: new RegExp(p.regex, 'u') }));
    const check = (node) => {
      const source = node.type === 'TemplateLiteral' ? node.quasis[0].value.cooked : node.value;
      for (const { matcher, message } of patterns) {
        if (matcher.test(source)) context.report({ node, message: `'${source}' import is restricted. ${message}` });
      }
    };
    return {
      ImportExpression(node) {
        const { source } = node;
        if ((source.type === 'Literal' && typeof source.value === 'string') || (source.type === 'TemplateLiteral' && source.expressions.length === 0)) check(source);
      },
      TSImportType(node) {
        if (node.source) check(node.source);
      },
    };
  },
};

const importRules = (rule, targets) => ({
  'no-restricted-imports': ['error', importPatterns(rule, targets)],
  'folder-rules/no-restricted-dynamic-imports': ['error', dynamicImportPatterns(rule, targets)],
});

const folderConfigs = FOLDER_RULES.flatMap((rule) => {
  const runtime = rule.runsIn && RUNTIMES[rule.runsIn];
  return [
    {
      files: rule.files,
      ignores: [...(rule.ignores ?? []), ...TEST_FILES],
      rules: {
        ...importRules(rule, rule.forbid),
        ...(runtime && {
          'no-restricted-globals': [
            'error',
            ...runtime.restricted.map((name) => ({ name, message: runtime.message(rule.where, name) })),
            ...(rule.alsoRestricted ?? []),
          ],
        }),
      },
    },
    ...(rule.files[0].endsWith('/**')
      ? [{
          files: TEST_FILES.map((testGlob) => rule.files[0].replace(/\*\*$/, testGlob)),
          ignores: rule.ignores ?? [],
          rules: importRules(rule, forTests(rule.forbid)),
        }]
      : []),
  ];
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'folder-rules': { rules: { 'no-restricted-dynamic-imports': dynamicImportRule, 'no-side-doors': sideDoorRule, 'no-unlisted-place': unlistedPlaceRule } } },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  ...folderConfigs,
  {
    files: PRODUCT_FILES,
    ignores: TEST_FILES,
    rules: {
      'folder-rules/no-side-doors': ['error', { lazyLoads: LAZY_LOADS }],
      // Code built from a string is a dynamic import in disguise.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  { files: CODE_FILES, ignores: KNOWN_PLACES, rules: { 'folder-rules/no-unlisted-place': 'error' } },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'tests/**'],
    rules: { 'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name='only']", message: 'No focused tests: .only hides the rest of the suite.' }] },
  },
);

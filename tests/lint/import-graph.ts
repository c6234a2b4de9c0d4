/**
 * The real import graph of the product's sources, read with the TypeScript compiler (not a regex):
 * every static import, export … from, import type, import('…'), import('…').Type, import x = require('…'),
 * require('…') and createRequire(…) call, resolved the way tsc resolves it. The erasure gate's structure
 * test (core/service/erasure-gate.test.ts) asserts on it; probes are passed in as in-memory files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type EdgeKind = 'import' | 'import type' | 'export from' | 'import()' | 'import type node' | 'import = require' | 'require()';

export interface ImportEdge {
  from: string;
  /** As written in the source. */
  specifier: string;
  /** Repository path of the file it resolves to (relative specifiers), or the package name. */
  to: string;
  kind: EdgeKind;
}

/** A way to load code at run time that the folder rules cannot see: import(), require(), createRequire, node:module, eval. */
export interface RuntimeLoad {
  file: string;
  /** import(…) with its argument as written, or the loader's name. */
  what: string;
}

export interface SourceFile {
  path: string;
  text: string;
}

// Folders that hold no product code: tests, end-to-end specs, build scripts, and what tools make.
const NOT_PRODUCT_FOLDERS = new Set(['node_modules', 'dist', 'tests', 'e2e', 'scripts', 'docs', 'security', 'test-results', 'playwright-report', 'coverage', 'release']);
const CODE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
const TEST_CODE = /(?:\.test\.tsx?|\.harness\.mjs)$|(?:^|\/)test\//;
const TOOL_CONFIG = /^[^/]+\.config\.[cm]?[jt]s$/;

export const isProductFile = (path: string) => CODE.test(path) && !TEST_CODE.test(path) && !TOOL_CONFIG.test(path) && !path.endsWith('.d.ts');

/** Every product source file of the repository (any folder but the ones above, test files left out), read from disk. */
export function productSources(root = REPO_ROOT): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const repoPath = relative(root, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (dir !== root || !NOT_PRODUCT_FOLDERS.has(entry.name)) walk(path);
      } else if (isProductFile(repoPath)) {
        files.push({ path: repoPath, text: readFileSync(path, 'utf8') });
      }
    }
  };
  walk(root);
  return files;
}

const RESOLUTION: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};
const LOADER_CALLS = new Set(['require', 'createRequire', 'getBuiltinModule', 'eval']);

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return /\.[cm]?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** Where a specifier leads: a repository path for a relative one (resolved as tsc does, else by path), the package name otherwise. */
function resolveSpecifier(specifier: string, from: string, root: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const containing = join(root, from);
  const resolved = ts.resolveModuleName(specifier, containing, RESOLUTION, ts.sys).resolvedModule?.resolvedFileName;
  return relative(root, resolved ?? normalize(join(dirname(containing), specifier))).split(sep).join('/');
}

/** The edges and run-time loads of one file. */
export function readImports(file: SourceFile, root = REPO_ROOT): { edges: ImportEdge[]; loads: RuntimeLoad[] } {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, scriptKind(file.path));
  const edges: ImportEdge[] = [];
  const loads: RuntimeLoad[] = [];
  const edge = (specifier: string, kind: EdgeKind) => {
    edges.push({ from: file.path, specifier, to: resolveSpecifier(specifier, file.path, root), kind });
    if (/^(?:node:)?module$/.test(specifier)) loads.push({ file: file.path, what: `${kind} '${specifier}'` });
  };
  const literal = (node: ts.Node | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier !== undefined) edge(specifier, node.importClause?.isTypeOnly ? 'import type' : 'import');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier !== undefined) edge(specifier, 'export from');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const specifier = literal(node.moduleReference.expression);
      if (specifier !== undefined) edge(specifier, 'import = require');
      loads.push({ file: file.path, what: 'require()' });
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      const specifier = ts.isLiteralTypeNode(argument) ? literal(argument.literal) : undefined;
      if (specifier !== undefined) edge(specifier, 'import type node');
    } else if (ts.isCallExpression(node)) {
      const argument = node.arguments[0];
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const specifier = literal(argument);
        if (specifier !== undefined) edge(specifier, 'import()');
        loads.push({ file: file.path, what: `import(${argument ? argument.getText(source) : ''})` });
      } else {
        const name = loaderName(node.expression);
        if (name && LOADER_CALLS.has(name)) {
          loads.push({ file: file.path, what: `${name}()` });
          const specifier = name === 'require' ? literal(argument) : undefined;
          if (specifier !== undefined) edge(specifier, 'require()');
        }
      }
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Function') {
      loads.push({ file: file.path, what: 'new Function()' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { edges, loads };
}

/** require(…), require.resolve(…), x.require(…), createRequire(…), process.getBuiltinModule(…), eval(…): the loader's name. */
function loaderName(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) {
    if (ts.isIdentifier(callee.expression) && callee.expression.text === 'require') return 'require';
    return callee.name.text;
  }
  if (ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)) return callee.argumentExpression.text;
  return undefined;
}

export function importGraph(files: readonly SourceFile[], root = REPO_ROOT): { edges: ImportEdge[]; loads: RuntimeLoad[] } {
  const read = files.map((file) => readImports(file, root));
  return { edges: read.flatMap((r) => r.edges), loads: read.flatMap((r) => r.loads) };
}

/** The names a module exports (values and types, re-exports included), as the type checker sees them. */
export function exportedNames(path: string, root = REPO_ROOT): string[] {
  const fileName = join(root, path);
  const program = ts.createProgram([fileName], { ...RESOLUTION, noEmit: true, skipLibCheck: true, types: ['node'] });
  const source = program.getSourceFile(fileName);
  const symbol = source && program.getTypeChecker().getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${path} is not a module`);
  return program.getTypeChecker().getExportsOfModule(symbol).map((exported) => exported.name).sort();
}

import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './import-graph';

// Each runtime is compiled with only its own globals (npm run typecheck runs every config): the renderer
// without Node's types, shared/ with neither DOM nor Node, the Node folders without DOM. Probes are added
// in memory to the real config's program (all its files, so whatever they load globally is there too),
// and only the probes are type-checked.

interface Probe {
  code: string;
  compiles: boolean;
}

function compileProbes(config: string, folder: string, probes: readonly Probe[]): { code: string; errors: string[] }[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(REPO_ROOT, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`${config} could not be read`);
  const options: ts.CompilerOptions = { ...parsed.options, incremental: false, noEmit: true };
  delete options.tsBuildInfoFile;
  const files = new Map(probes.map((probe, index) => [join(REPO_ROOT, folder, `__types_probe_${index}__.ts`), `export const probe = ${probe.code};\n`]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = files.get(fileName);
    return text === undefined ? getSourceFile.call(host, fileName, language, ...rest) : ts.createSourceFile(fileName, text, language);
  };
  host.fileExists = (fileName) => files.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => files.get(fileName) ?? readFile.call(host, fileName);
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, ...files.keys()], options, host });
  return [...files.keys()].map((fileName, index) => {
    const source = program.getSourceFile(fileName)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    return { code: probes[index]!.code, errors: diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')) };
  });
}

const refused = (code: string): Probe => ({ code, compiles: false });
const accepted = (code: string): Probe => ({ code, compiles: true });

const RUNTIMES = [
  {
    config: 'tsconfig.renderer.json',
    folder: 'renderer',
    probes: [
      refused('globalThis.process'),
      refused('process.env'),
      refused("Buffer.from('x')"),
      refused("require('node:fs')"),
      refused('__dirname'),
      refused('setImmediate(() => undefined)'),
      accepted('document.title'),
      accepted('window.location.href'),
      accepted("new URL('https://debate.example').origin"),
      accepted('navigator.clipboard'),
    ],
  },
  {
    config: 'tsconfig.shared.json',
    folder: 'shared',
    probes: [
      refused('document.title'),
      refused('window'),
      refused('globalThis.process'),
      refused('process.env'),
      refused("Buffer.from('x')"),
      refused('localStorage'),
      refused("new URL('https://debate.example').searchParams"),
      accepted("new URL('https://debate.example').origin"),
      accepted("new TextEncoder().encode('x').length"),
      accepted("JSON.stringify([1, 2].at(-1))"),
    ],
  },
  {
    config: 'tsconfig.node.json',
    folder: 'core',
    probes: [
      refused('document.title'),
      refused('window.location'),
      refused('localStorage'),
      refused('new DOMParser()'),
      accepted('process.env.HOME'),
      accepted("Buffer.from('x')"),
      accepted("new URL('https://debate.example').origin"),
      accepted('fetch'),
    ],
  },
] as const;

describe('each runtime compiles with only its own globals', () => {
  it.each(RUNTIMES.map((runtime) => [`${runtime.config}: ${runtime.folder}/ refuses the other side's globals and keeps its own`, runtime] as const))('%s', (_title, { config, folder, probes }) => {
    const results = compileProbes(config, folder, probes);
    for (const [index, result] of results.entries()) {
      if (probes[index]!.compiles) expect(result.errors, `${result.code} compiles in ${folder}/`).toEqual([]);
      else expect(result.errors.length, `${result.code} fails to compile in ${folder}/`).toBeGreaterThan(0);
    }
  }, 120_000);
});

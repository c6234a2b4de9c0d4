// The benchmark's command line: how many repetitions, which parts, how large, where the figures go.
import { parseArgs } from 'node:util';

/** A mistake on the command line: said in a line, without a stack. */
export class UsageError extends Error {}

export const PART_NAMES = ['start', 'core', 'capacity', 'pace', 'find', 'renderer', 'memory', 'team', 'reconcile'];

export const USAGE = `npm run bench [-- options]

  --reps N            repetitions of each measurement after a warm-up (default 3); figures are their medians
  --only a,b          run only these parts; --skip a,b  run all but these
                      parts: ${PART_NAMES.join(', ')}
  --batch-items N     items of a capacity run (default 2000)
  --pace-items N      items of a pace run under a rate limit (default 2000)
  --pace-serial       run the pace runs one at a time (default: the 30/s ones side by side, each on its own sandbox)
  --memory-items N    uids of the peak-memory batch (default 100000)
  --find-users N      users of the sandbox 'users find' walks (default 100000)
  --reconcile-users N users of the sandbox, and uids of the list, 'users reconcile' compares (default 100000)
  --audit-entries N   audit entries the audit view opens (default 50000)
  --team-acts N       acts each of the 8 team writers appends (default 1000)
  --team-entries N    entries of the team trail read in pages (default 1000000)
  --out FILE          where the figures go (default bench/results.json; a run of some parts writes nowhere unless given)
  --docs / --no-docs  write the table into docs/BENCHMARKS.md (default: a run of every part does)
  --tiny              a few items of everything, one repetition, no warm-up, nothing written but --out:
                      proves the suite still runs (npm test); its figures mean nothing`;

// Full sizes, as the goals state them (2,000-item batches, 100,000 uids and users, a 50,000-entry trail).
const FULL = {
  reps: 3, warmUp: true, startRuns: 5, clientCalls: 2000, tokenCalls: 1000,
  batchItems: 2000, curlSample: 50, paceItems: 2000, paceSerial: false,
  memoryItems: 100_000, findUsers: 100_000, auditEntries: 50_000,
  teamActs: 1_000, teamEntries: 1_000_000,
  reconcileUsers: 100_000,
};

// Small enough for npm test (about 20 s), large enough that every code path runs once.
const TINY = {
  reps: 1, warmUp: false, startRuns: 1, clientCalls: 40, tokenCalls: 40,
  batchItems: 12, curlSample: 2, paceItems: 6, paceSerial: true,
  memoryItems: 60, findUsers: 60, auditEntries: 300,
  teamActs: 5, teamEntries: 5_000,
  reconcileUsers: 60,
};

const MIN_USERS_FOR_PAGES = 60;

const SIZE_FLAGS = { 'batch-items': 'batchItems', 'pace-items': 'paceItems', 'memory-items': 'memoryItems', 'find-users': 'findUsers', 'audit-entries': 'auditEntries', 'team-acts': 'teamActs', 'team-entries': 'teamEntries', 'reconcile-users': 'reconcileUsers', reps: 'reps' };

/** The sizes this run uses where they differ from a full run's, e.g. `--batch-items 500`. */
export function sizeChanges(options) {
  return Object.entries(SIZE_FLAGS).filter(([, key]) => options[key] !== FULL[key]).map(([flag, key]) => `--${flag} ${options[key]}`);
}

export function parseBenchArgs(argv) {
  const { values } = parseUsage(() => parseArgs({
    args: argv,
    options: {
      tiny: { type: 'boolean' }, reps: { type: 'string' }, only: { type: 'string' }, skip: { type: 'string' },
      'batch-items': { type: 'string' }, 'pace-items': { type: 'string' }, 'pace-serial': { type: 'boolean' },
      'memory-items': { type: 'string' }, 'find-users': { type: 'string' }, 'audit-entries': { type: 'string' },
      'team-acts': { type: 'string' }, 'team-entries': { type: 'string' }, 'reconcile-users': { type: 'string' },
      out: { type: 'string' }, docs: { type: 'boolean' }, 'no-docs': { type: 'boolean' }, help: { type: 'boolean' },
    },
  }));
  if (values.help) return { help: true };
  const options = { ...(values.tiny ? TINY : FULL), tiny: Boolean(values.tiny) };
  for (const [flag, key] of Object.entries(SIZE_FLAGS)) {
    if (values[flag] === undefined) continue;
    const value = Number(values[flag]);
    if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${flag} must be a whole number of 1 or more (got "${values[flag]}").`);
    options[key] = value;
  }
  if (values['pace-serial']) options.paceSerial = true;
  // One sandbox serves the core, capacity, renderer and first pace runs: large enough for each (the users page
  // wants more than one page of 25).
  options.smallUsers = Math.max(options.batchItems, options.paceItems, MIN_USERS_FOR_PAGES);
  const only = list(values.only);
  const skip = list(values.skip);
  options.parts = PART_NAMES.filter((name) => (only.length === 0 || only.includes(name)) && !skip.includes(name));
  const everyPart = options.parts.length === PART_NAMES.length;
  // Figures of some parts only, or of a tiny run, would replace a whole run's table with a partial or meaningless one.
  options.out = values.out ?? (everyPart && !options.tiny ? 'bench/results.json' : undefined);
  options.docs = values['no-docs'] ? false : Boolean(values.docs) || (everyPart && !options.tiny);
  return options;
}

function parseUsage(parse) {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(`${error.message}\n\n${USAGE}`);
  }
}

function list(text) {
  const names = (text ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !PART_NAMES.includes(name));
  if (unknown.length > 0) throw new UsageError(`Unknown part(s): ${unknown.join(', ')}. Parts: ${PART_NAMES.join(', ')}.`);
  return names;
}

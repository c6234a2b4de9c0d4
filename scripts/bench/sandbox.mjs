// The sandbox in its own process for the benchmarks (port 0: any free port), so the CLI and the probes meet a
// real service over HTTP, and the sandbox's CPU is not the measured process's. Its request log (one line per
// answer on stdout) is read to count answers by status: the sandbox's stats count requests but not 429s.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { root } from './paths.mjs';

const FIELDS = { 'URL': 'url', 'API key': 'apiKey', 'Secret key': 'apiSecret', 'Application name': 'applicationName' };
// `METHOD URL STATUS Nms`, where STATUS may be `200, answer lost` or `dropped` (sandbox/request-log.ts).
const LOG_LINE = /^\S+ (\S+) (.+) \d+ms$/;
// The service's routes; /sandbox/* (inspection) is never counted, like the sandbox's own stats.
const SERVICE_ROUTE = /^\/(?:oauth\/token|api\/|auth\/logout\/)/;

/**
 * Starts `sandbox/main.ts` with `--users N` and resolves once it printed its address and credentials.
 * The result has `reset()`, `setFaults()`, `stats()`, `answers()` (service answers by status since the last
 * `reset()` or `clearAnswers()`), `uids()` and `stop()`.
 */
export function startSandbox({ users, startMs = 240_000 }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--port', '0', '--users', String(users)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const facts = {};
  let answers = emptyAnswers();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The sandbox of ${users} users did not start within ${startMs / 1000} s.`)), startMs);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    child.on('exit', (code) => fail(new Error(`The sandbox stopped at start (exit ${code}).`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (Object.keys(facts).length === Object.keys(FIELDS).length) {
        countAnswer(answers, line);
        return;
      }
      const at = line.indexOf(': ');
      const key = FIELDS[line.slice(0, at)];
      if (key) facts[key] = line.slice(at + 2);
      if (Object.keys(facts).length < Object.keys(FIELDS).length) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(controls(child, facts, users, () => answers, () => (answers = emptyAnswers())));
    });
  });
}

function emptyAnswers() {
  return { total: 0, byStatus: {} };
}

function countAnswer(answers, line) {
  const match = LOG_LINE.exec(line);
  if (!match || !SERVICE_ROUTE.test(match[1])) return;
  const status = /^\d{3}/.exec(match[2])?.[0] ?? match[2];
  answers.total += 1;
  answers.byStatus[status] = (answers.byStatus[status] ?? 0) + 1;
}

function controls(child, facts, users, currentAnswers, clearAnswers) {
  const call = async (method, path, body) => {
    const response = await fetch(`${facts.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  return {
    ...facts,
    users,
    /** Users back to the seed (erased ones come back), faults off, counts and rate-limit window cleared. */
    async reset() {
      await call('POST', '/sandbox/reset');
      clearAnswers();
    },
    /** Faults and variants in one flat object, e.g. `{ latencyMs: 50 }` or `{ rateLimit: 30, retryAfter: 'none' }`. */
    setFaults: (faults) => call('PUT', '/sandbox/faults', faults),
    faults: () => call('GET', '/sandbox/faults'),
    stats: () => call('GET', '/sandbox/stats'),
    resetStats: () => call('POST', '/sandbox/stats/reset'),
    /**
     * The service's answers by status since the last reset. The sandbox logs an answer once it has gone out, so
     * a request to it first lets the log lines of the answers before it arrive.
     */
    async answers() {
      await call('GET', '/sandbox/stats');
      await new Promise((resolve) => setImmediate(resolve));
      return structuredClone(currentAnswers());
    },
    clearAnswers,
    /** Every seeded uid, in the service's order, read through the list with the API key (100 a page, 8 pages at once). */
    async uids() {
      const pages = Math.ceil(users / 100);
      const found = [];
      let next = 1;
      const worker = async () => {
        while (next <= pages) {
          const page = next++;
          const body = await call('GET', `/api/v1/users?page=${page}&per_page=100&api_key=${encodeURIComponent(facts.apiKey)}`);
          found[page - 1] = body.data.map((user) => user.uid).filter((uid) => typeof uid === 'string');
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      clearAnswers();
      return found.flat();
    },
    /** The environment a CLI or probe needs to reach this sandbox (credentials as the CLI reads them). */
    env: (dataDir) => ({
      ...process.env,
      PRIVACY_DESK_DATA_DIR: dataDir,
      PRIVACY_DESK_CREDENTIAL_STORE: 'session',
      PRIVACY_DESK_API_KEY: facts.apiKey,
      PRIVACY_DESK_API_SECRET: facts.apiSecret,
    }),
    connection: () => ['--base-url', facts.url, '--app', facts.applicationName],
    stop: () => child.kill(),
  };
}

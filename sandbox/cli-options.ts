import { parseArgs } from 'node:util';
import { SANDBOX_DEFAULTS } from './defaults';
import { RATE_LIMIT_WINDOWS, type RateLimitWindow } from './rate-limiter';
import type { SandboxOptions } from './types';
import { DEFAULT_LOGOUT_LAPSES, LOGOUT_LAPSES, parseLogoutLapses } from './logout-lapses';

export const USAGE = `Usage: npm run sandbox -- [options]

Starts a local sandbox of the debate-space service's user-data API (sandbox-only credentials are printed).

Options:
  --port N              port to listen on (default ${SANDBOX_DEFAULTS.port}; 0 = any free port)
  --host HOST           address to bind (default 127.0.0.1)
  --users N             seeded users (default ${SANDBOX_DEFAULTS.users})
  --seed N              seed of the generated users (default ${SANDBOX_DEFAULTS.seed})
  --token-ttl S         access token lifetime in seconds (default ${SANDBOX_DEFAULTS.tokenTtlSeconds})
  --data FILE           keep state in FILE across restarts
  --latency MS          delay added to every API answer
  --error-rate R        share (0..1) of API requests answered 500/502/503
  --drop-rate R         share (0..1) of API connections cut without an answer (nothing done)
  --lost-answer-rate R  share (0..1) of anonymise/delete requests done, then cut before the answer
  --rate-limit N        more than N API requests per second get 429 (0 = off)
  --rate-limit-window W sliding (the last 1,000 ms, default) | fixed (each calendar second)
  --list-variant V      success-data | bare-array | users-key | data-meta | no-headers
  --logout-error-status 400 | 422
  --logout-lapses L     logout token checks to skip: "none" (keep every rule) or a comma-separated list of
                        ${LOGOUT_LAPSES.join(', ')}
                        (default ${DEFAULT_LOGOUT_LAPSES.join(',')})
  --help                show this help

Test-only routes live under /sandbox/ (GET /sandbox/ lists them). Time passes on the sandbox's own clock:
POST /sandbox/clock {"advanceSeconds": N} moves it forward, so tokens expire and rate-limit windows pass without waiting.`;

export class UsageError extends Error {}

const LIST_VARIANTS = ['success-data', 'bare-array', 'users-key', 'data-meta', 'no-headers'] as const;

function integer(name: string, raw: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
  }
  return Number(raw);
}

function share(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`--${name} must be a number from 0 to 1, e.g. 0.1 for 10% (got "${raw}").`);
  }
  return value;
}

function rateLimitWindow(raw: string | undefined): RateLimitWindow | undefined {
  if (raw === undefined) return undefined;
  if (!(RATE_LIMIT_WINDOWS as readonly string[]).includes(raw)) {
    throw new UsageError(`--rate-limit-window must be one of ${RATE_LIMIT_WINDOWS.join(', ')} (got "${raw}").`);
  }
  return raw as RateLimitWindow;
}

/** Turns the command line into sandbox options; 'help' when --help was given. Throws UsageError on bad input. */
export function parseSandboxArgs(argv: string[]): SandboxOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' }, host: { type: 'string' }, users: { type: 'string' }, seed: { type: 'string' },
        'token-ttl': { type: 'string' }, data: { type: 'string' }, latency: { type: 'string' },
        'error-rate': { type: 'string' }, 'drop-rate': { type: 'string' }, 'rate-limit': { type: 'string' },
        'rate-limit-window': { type: 'string' },
        'lost-answer-rate': { type: 'string' },
        'list-variant': { type: 'string' }, 'logout-error-status': { type: 'string' }, 'logout-lapses': { type: 'string' }, help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';

  const options: SandboxOptions = {
    port: integer('port', values.port, 0, 65535) ?? SANDBOX_DEFAULTS.port,
    users: integer('users', values.users, 0, 1_000_000),
    seed: integer('seed', values.seed, 0, 4_294_967_295),
    tokenTtlSeconds: integer('token-ttl', values['token-ttl'], 1),
    faults: {},
    variants: {},
    quiet: false,
  };
  if (values.host !== undefined) options.host = values.host;
  if (values.data !== undefined) {
    if (values.data.trim() === '') throw new UsageError('--data needs a file path.');
    options.dataFile = values.data;
  }
  const faults = {
    latencyMs: integer('latency', values.latency, 0, 120_000),
    errorRate: share('error-rate', values['error-rate']),
    dropRate: share('drop-rate', values['drop-rate']),
    lostAnswerRate: share('lost-answer-rate', values['lost-answer-rate']),
    rateLimit: integer('rate-limit', values['rate-limit'], 0),
    rateLimitWindow: rateLimitWindow(values['rate-limit-window']),
  };
  options.faults = Object.fromEntries(Object.entries(faults).filter(([, v]) => v !== undefined));

  const listVariant = values['list-variant'];
  if (listVariant !== undefined) {
    if (!(LIST_VARIANTS as readonly string[]).includes(listVariant)) {
      throw new UsageError(`--list-variant must be one of ${LIST_VARIANTS.join(', ')} (got "${listVariant}").`);
    }
    options.variants = listVariant === 'no-headers'
      ? { paginationHeaders: false }
      : { listBody: listVariant as Exclude<(typeof LIST_VARIANTS)[number], 'no-headers'> };
  }
  const logoutStatus = values['logout-error-status'];
  if (logoutStatus !== undefined) {
    if (logoutStatus !== '400' && logoutStatus !== '422') throw new UsageError(`--logout-error-status must be 400 or 422 (got "${logoutStatus}").`);
    options.variants = { ...options.variants, logoutErrorStatus: logoutStatus === '400' ? 400 : 422 };
  }
  const lapses = values['logout-lapses'];
  if (lapses !== undefined) {
    try {
      options.variants = { ...options.variants, logoutLapses: parseLogoutLapses(lapses) };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  for (const key of ['users', 'seed', 'tokenTtlSeconds'] as const) if (options[key] === undefined) delete options[key];
  return options;
}

import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { SandboxClock } from './clock';
import { SandboxConfig } from './config';
import { emptyStats, type SandboxContext } from './context';
import { SANDBOX_DEFAULTS } from './defaults';
import { RateLimiter } from './rate-limiter';
import { loadSnapshot, saveSnapshot } from './persistence';
import { SandboxState, seedSnapshot } from './state';
import { createRandom } from './prng';
import type { RunningSandbox, SandboxCredentials, SandboxOptions } from './types';
import { UidRequestLog } from './uid-requests';
import { LogoutReplayMemory } from './logout-replay';

export type {
  LoggedAct, RateLimitWindow, RunningSandbox, SandboxCredentials, SandboxFaults, SandboxOptions, SandboxStats, SandboxVariants, ServiceUser,
  UidRequest,
} from './types';
export { SANDBOX_DEFAULTS, SANDBOX_ONLY_API_KEY, SANDBOX_ONLY_API_SECRET, SANDBOX_ONLY_APPLICATION_NAME } from './defaults';

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new Error(`Sandbox option ${name} must be a whole number of at least ${min} (got ${value}).`);
  return value;
}

/** Starts a local, faithful imitation of the service (docs/SERVICE-API.md: the published interface, observed behaviour by default). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const credentials: SandboxCredentials = {
    apiKey: options.apiKey ?? SANDBOX_DEFAULTS.apiKey,
    apiSecret: options.apiSecret ?? SANDBOX_DEFAULTS.apiSecret,
    applicationName: options.applicationName ?? SANDBOX_DEFAULTS.applicationName,
  };
  const seed = wholeNumber('seed', options.seed ?? SANDBOX_DEFAULTS.seed, 0);
  const userCount = wholeNumber('users', options.users ?? SANDBOX_DEFAULTS.users, 0);
  const tokenTtlSeconds = wholeNumber('tokenTtlSeconds', options.tokenTtlSeconds ?? SANDBOX_DEFAULTS.tokenTtlSeconds, 1);
  const port = wholeNumber('port', options.port ?? 0, 0);

  const dataFile = options.dataFile;
  const saved = dataFile ? loadSnapshot(dataFile) : undefined;
  const persist = dataFile ? (snapshot: Parameters<typeof saveSnapshot>[1]) => saveSnapshot(dataFile, snapshot) : undefined;
  const clock = new SandboxClock(options.now);
  const state = new SandboxState(saved ?? seedSnapshot(seed, userCount), persist, () => clock.now());
  if (dataFile && !saved) saveSnapshot(dataFile, state.snapshot());

  const config = new SandboxConfig(options.faults, options.variants);
  const ctx: SandboxContext = {
    state,
    config,
    credentials,
    tokenTtlSeconds,
    stats: emptyStats(),
    rateLimiter: new RateLimiter(),
    clock,
    requestLog: new UidRequestLog(),
    logoutReplays: new LogoutReplayMemory(() => clock.now()),
    faultRandom: options.faultSeed === undefined ? Math.random : createRandom(options.faultSeed).next,
    reset() {
      state.replaceUsers(seedSnapshot(seed, userCount));
      config.restore();
      Object.assign(ctx.stats, emptyStats());
      ctx.rateLimiter.clear();
      ctx.requestLog.clear();
      ctx.logoutReplays.clear();
    },
  };

  const quiet = options.quiet ?? true;
  const app = await buildApp(ctx, { log: quiet ? undefined : (options.log ?? ((line) => console.log(line))) });
  await app.listen({ port, host: options.host ?? '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  // A wildcard bind is reached through loopback.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const host = reachable.includes(':') ? `[${reachable}]` : reachable;

  return {
    url: `http://${host}:${address.port}`,
    credentials,
    stats: () => structuredClone(ctx.stats),
    setFaults: (faults) => config.setFaults(faults),
    setVariants: (variants) => config.setVariants(variants),
    now: () => clock.now(),
    advanceClock: (seconds) => clock.advance(seconds),
    reset: async () => ctx.reset(),
    issuedTokens: () => state.issuedTokens(),
    requestLog: (uid) => ctx.requestLog.of(uid),
    close: async () => {
      await app.close();
    },
  };
}

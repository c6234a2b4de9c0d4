import type { AppInfo } from '../shared/contract';
import { createDesk, type Desk } from '../core/desk';
import type { CredentialStore } from '../core/credential-store';
import { ensureDataDir, resolveDataDir } from '../core/data-dir';
import { deskStoresFor } from '../core/team/team-stores';
import type { FetchLike } from '../core/types';
import type { RunningSandbox } from '../sandbox/server';
import { startBundledSandbox } from './bundled-sandbox';
import { createBridgeHandlers } from '../handlers/create-bridge-handlers';
import { createBridgeEventHub, type BridgeEventHub } from '../handlers/bridge-event-hub';
import { createJobRegistry } from '../handlers/jobs';
import type { BridgeHandlers } from '../handlers/types';
import { scheduleRegisterPurge } from './register-purge';
import { createTeamControl } from './team-control';
import { BRIDGE_METHODS } from '../shared/contract';

export interface AppRuntimeOptions {
  /** Defaults to PRIVACY_DESK_DATA_DIR or the OS per-user folder (shared with the CLI). */
  dataDir?: string;
  /** Node's fetch by default; Electron passes net.fetch. */
  fetch?: FetchLike;
  /** Start the bundled sandbox when there is no profile or the Sandbox profile exists. Default true. */
  bundledSandbox?: boolean;
  /** Default 4600, any free port when taken; tests pass 0. */
  sandboxPort?: number;
  version: string;
  locale: string;
  /** Defaults to the OS keychain, or the session store plus the reason the keychain cannot be used. */
  openCredentials?: () => Promise<{ store: CredentialStore; problem?: string }>;
  /** Where PRIVACY_DESK_DATABASE_PASSWORD is read (team mode without a keychain); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Extension for tests: how long close() waits for batch runs to finish their items in flight (default 10 s). */
  batchStopGraceMs?: number;
}

/** What both front ends (Electron main and the loopback web host) run: Desk, handlers, bundled sandbox. */
export interface AppRuntime {
  dataDir: string;
  desk: Desk;
  handlers: BridgeHandlers;
  /** Main → window events (job progress…): each transport subscribes and delivers them. */
  events: Pick<BridgeEventHub, 'subscribe'>;
  appInfo(): AppInfo;
  /** Set when the bundled sandbox runs for this launch. */
  sandbox?: RunningSandbox;
  close(): Promise<void>;
}

/** How often the runtime retries audit outcomes it could not write (a full disk frees up…). */
const PENDING_AUDIT_RETRY_MS = 10_000;

/** How long closing waits for cancelled batch runs to finish the items they have sent and write their journals. */
const BATCH_STOP_GRACE_MS = 10_000;

/** Resolves when `work` does, or after `ms`, whichever comes first; the timer never keeps the process alive. */
async function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([work, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

async function defaultCredentials(): Promise<{ store: CredentialStore; problem?: string }> {
  // Loaded lazily: keytar is a native module, only needed when no store is injected.
  const { openCredentialStore } = await import('../core/keytar-credential-store');
  return openCredentialStore();
}

export async function startAppRuntime(options: AppRuntimeOptions): Promise<AppRuntime> {
  const dataDir = ensureDataDir(options.dataDir ?? resolveDataDir());
  const credentials = await (options.openCredentials ?? defaultCredentials)();
  const env = options.env ?? process.env;
  const openDesk = async (): Promise<Desk> => {
    // Team mode (team.json in the data folder): the team database's stores, reached when first needed, so the console
    // opens even while the database is away (what needs it says so, and sends nothing).
    const stores = await deskStoresFor({ dataDir, env, keychain: async () => credentials.store });
    return createDesk({
      ...(stores ? { stores } : {}),
      dataDir,
      credentialStore: credentials.store,
      ...(credentials.problem ? { credentialProblem: credentials.problem } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      via: 'app',
      appVersion: options.version,
    });
  };
  // Built again when team mode is switched from the console (team.connect / team.disconnect).
  let desk = await openDesk();
  const sandbox = options.bundledSandbox === false ? undefined : await startBundledSandbox({ desk, dataDir, ...(options.sandboxPort !== undefined ? { port: options.sandboxPort } : {}) });

  const appInfo = (): AppInfo => ({
    version: options.version,
    locale: options.locale,
    keychain: desk.keychainStatus(),
    ...(sandbox ? { sandboxUrl: sandbox.url } : {}),
    ...(desk.team ? { team: { where: desk.team.where } } : {}),
  });
  const events = createBridgeEventHub();
  const jobs = createJobRegistry(events.emit);
  // An outcome the trail could not write (full disk) is kept and written as soon as writing works again.
  const flushTimer = setInterval(() => void desk.flushPending().catch(() => undefined), PENDING_AUDIT_RETRY_MS);
  flushTimer.unref();
  const stopPurging = scheduleRegisterPurge({
    get requests() {
      return desk.requests;
    },
  });
  /** What the desk of the moment leaves behind before another takes its place, or the app closes. */
  const windDown = async (old: Desk) => {
    // Running jobs stop at their next step. Batch runs are waited for, within a bound: their items in flight
    // finish and their outcomes reach the journal (an item still in flight at the bound is re-checked on resume).
    // The others are not (a page request may hang).
    jobs.cancelAll();
    await within(jobs.settled(['batch.run']), options.batchStopGraceMs ?? BATCH_STOP_GRACE_MS);
    // A last try for outcomes still waiting to be written.
    await old.flushPending().catch(() => undefined);
    await old.settleAudit().catch(() => undefined);
    // Previews never run are of no use once their desk is gone: their drafts go with it.
    old.batch.discardOpenDrafts();
  };
  const team = createTeamControl({
    dataDir,
    keychain: credentials.store,
    env,
    appVersion: options.version,
    async switchStores() {
      const old = desk;
      await windDown(old);
      desk = await openDesk();
      current = createBridgeHandlers({ desk, appInfo, jobs, team });
      await old.team?.close();
    },
  });
  let current = createBridgeHandlers({ desk, appInfo, jobs, team });
  // The transports hold this object for good: each call goes to the handlers of the desk of the moment.
  const handlers = Object.fromEntries(BRIDGE_METHODS.map((method) => [method, (input: never) => (current[method] as (given: never) => Promise<unknown>)(input)])) as unknown as BridgeHandlers;
  let closed = false;
  return {
    dataDir,
    get desk() {
      return desk;
    },
    handlers,
    events: { subscribe: events.subscribe },
    appInfo,
    ...(sandbox ? { sandbox } : {}),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(flushTimer);
      const purgeEnded = stopPurging();
      // The sandbox stays up meanwhile: a bundled run is sending to it.
      await windDown(desk);
      await purgeEnded;
      await sandbox?.close();
      await desk.team?.close();
    },
  };
}

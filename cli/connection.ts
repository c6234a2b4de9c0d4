import { Command, Option } from 'commander';
import { cliVersion } from './version';
import { parseWholeNumber } from './parse';
import { PrivacyDeskError, invalidInput } from '../shared/errors';
import type { Credentials } from '../shared/profile';
import { createSessionCredentialStore } from '../core/credential-store';
import { ensureDataDir, resolveDataDir } from '../core/data-dir';
import { createDesk, type Desk } from '../core/desk';
import { openCredentialStore } from '../core/keytar-credential-store';
import { anchorInCredentialStore } from '../core/audit-anchor';
import { deskStoresFor } from '../core/team/team-stores';

export const API_KEY_ENV = 'PRIVACY_DESK_API_KEY';
export const API_SECRET_ENV = 'PRIVACY_DESK_API_SECRET';

export interface ConnectionOptions {
  profile?: string;
  baseUrl?: string;
  app?: string;
  timeout?: string;
  /** Batch commands only: minutes an item is tried before it is failed (--retry-for). */
  retryFor?: string;
}

export const CONNECTION_OPTION_KEYS = ['profile', 'baseUrl', 'app', 'timeout'] as const;

/** The longest --timeout accepted: beyond ten minutes an operator is better told the service is not answering. */
const MAX_TIMEOUT_SECONDS = 600;

/** The same options on every command that talks to the service. There is deliberately no option for a secret. */
export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(new Option('--profile <name>', 'profile name or id (credentials from the OS keychain)'))
    .addOption(new Option('--base-url <url>', `service address, with --app; credentials from ${API_KEY_ENV} and ${API_SECRET_ENV}`))
    .addOption(new Option('--app <name>', 'application name (its short name in the service’s administration panel), with --base-url'))
    .addOption(new Option('--timeout <seconds>', 'seconds to wait for each answer from the service (default 30); a retried list gives up after twice that'));
}

/** The longest --retry-for: a day. An item tried longer than that is better looked at by a person. */
const LONGEST_RETRY_FOR_MINUTES = 24 * 60;

/** Batch option: how long each item is tried before it is failed (default 10 minutes), shared by the commands that run a job. */
export function addRetryForOption(command: Command): Command {
  return command.option('--retry-for <minutes>', 'how long an item whose attempts get no clear answer (a 5xx, a cut connection, a timeout) is tried again, with backoff, before it is failed (default 10)');
}

/** `--retry-for` in minutes as milliseconds, or undefined when not given; refused (exit 2) when unusable. */
export function parseRetryForMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return parseWholeNumber(value, '--retry-for', { max: LONGEST_RETRY_FOR_MINUTES }) * 60_000;
}

/** `--timeout` in seconds (decimals allowed) as milliseconds, or undefined when not given; refused (exit 2) when unusable. */
export function parseTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const seconds = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!(seconds > 0) || seconds > MAX_TIMEOUT_SECONDS) {
    throw invalidInput(`--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS} (got "${value}").`);
  }
  return Math.round(seconds * 1000);
}

/**
 * A Desk over the data folder — or, in team mode, over the team database (opened when a command first needs it, so a
 * database that cannot be reached stops that command before anything is sent); the keychain is opened only when
 * stored profiles' credentials (or the team database's password) are needed.
 */
export async function openDesk(options: { keychain: boolean; timeoutMs?: number; batchRetryForMs?: number }, env: NodeJS.ProcessEnv): Promise<Desk> {
  const dataDir = ensureDataDir(resolveDataDir(env));
  const common = {
    dataDir,
    via: 'cli' as const,
    appVersion: cliVersion(),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.batchRetryForMs !== undefined ? { batchRetryForMs: options.batchRetryForMs } : {}),
  };
  // The audit trail's anchor lives in the keychain whether or not credentials come from it (the app and every
  // command keep the same one); it is opened only when the trail is written or checked.
  if (!options.keychain) {
    // The anchor and the request register's key live in the keychain too; opened once, when first needed.
    let keychain: ReturnType<typeof openCredentialStore> | undefined;
    const openKeychain = () => (keychain ??= openCredentialStore({ env }));
    const stores = await deskStoresFor({ dataDir, env, keychain: async () => (await openKeychain()).store });
    return createDesk({ ...common, credentialStore: createSessionCredentialStore(), auditAnchor: anchorInCredentialStore(openKeychain, dataDir), requestKeyStore: async () => (await openKeychain()).store, ...(stores ? { stores } : {}) });
  }
  const { store, problem } = await openCredentialStore({ env });
  const stores = await deskStoresFor({ dataDir, env, keychain: async () => store });
  return createDesk({ ...common, credentialStore: store, credentialProblem: problem === undefined ? undefined : cliKeychainProblem(problem), ...(stores ? { stores } : {}) });
}

// The core words a missing keychain for the app, which keeps credentials for its session; a CLI command ends at once.
const SESSION_ONLY = /\s*(Until then, )?credentials are kept (in memory )?for this session only\.\s*$/;

/** The keychain problem as a CLI user meets it: nothing "kept for this session", and the way to work without a keychain. */
export function cliKeychainProblem(problem: string): string {
  const reason = problem.replace(SESSION_ONLY, '').replace(/[;:,]\s*$/, '.');
  return `${reason} Without the keychain the CLI keeps no credentials between commands: use --base-url and --app with ${API_KEY_ENV} and ${API_SECRET_ENV}.`;
}

/** Key and secret from the environment; names the missing variable(s). `whoReads` starts the message: which command wants them. */
export function credentialsFromEnv(env: NodeJS.ProcessEnv, whoReads = '--base-url and --app take their credentials from the environment'): Credentials {
  const apiKey = env[API_KEY_ENV];
  const apiSecret = env[API_SECRET_ENV];
  // Each missing variable named with what it holds, so "the API key" is never asked of the secret's variable.
  const missing = [!apiKey ? `${API_KEY_ENV} to the API key` : '', !apiSecret ? `${API_SECRET_ENV} to the secret key` : ''].filter(Boolean);
  if (missing.length > 0) {
    throw invalidInput(
      `${whoReads}: set ${missing.join(' and ')} (Configuration > General in the service’s administration panel). Secrets are never accepted as command-line options.`,
    );
  }
  return { apiKey: apiKey as string, apiSecret: apiSecret as string };
}

/**
 * Which service a command talks to: --base-url/--app with environment
 * credentials, --profile, or else the active profile.
 */
export async function resolveConnection(options: ConnectionOptions, env: NodeJS.ProcessEnv): Promise<{ desk: Desk; profileId: string }> {
  const timeoutMs = parseTimeoutMs(options.timeout);
  const batchRetryForMs = parseRetryForMs(options.retryFor);
  if (options.baseUrl !== undefined || options.app !== undefined) {
    if (options.profile !== undefined) throw invalidInput('Use either --profile or --base-url with --app, not both.');
    if (!options.baseUrl || !options.app) throw invalidInput('--base-url and --app go together: give the service address and the application name.');
    const credentials = credentialsFromEnv(env);
    const desk = await openDesk({ keychain: false, timeoutMs, batchRetryForMs }, env);
    const profile = desk.useTemporaryConnection({ baseUrl: options.baseUrl, applicationName: options.app, credentials });
    return { desk, profileId: profile.id };
  }
  const desk = await openDesk({ keychain: true, timeoutMs, batchRetryForMs }, env);
  const { profiles, activeId } = await desk.listProfiles();
  const profileId = options.profile !== undefined ? (await desk.findProfile(options.profile)).id : activeId;
  if (profileId) {
    assertProfileCredentialsReadable(desk, profiles.find((view) => view.id === profileId));
    return { desk, profileId };
  }
  throw new PrivacyDeskError({
    code: 'INVALID_INPUT',
    message:
      `No connection given and no active profile. Either use a saved profile (--profile NAME; create one with "privacy-desk profiles add"), ` +
      `or give --base-url URL --app NAME with the credentials in ${API_KEY_ENV} and ${API_SECRET_ENV}.`,
  });
}

/**
 * Without a keychain the core says a profile's credentials were "kept only for the session in which they
 * were entered", which a CLI command, its own session, cannot act on: say what the CLI user can do instead.
 */
function assertProfileCredentialsReadable(desk: Desk, profile: { name: string; hasCredentials: boolean } | undefined): void {
  const keychain = desk.keychainStatus();
  if (keychain.available || !profile || profile.hasCredentials) return;
  throw new PrivacyDeskError({ code: 'KEYCHAIN_UNAVAILABLE', message: `The API key and secret of "${profile.name}" cannot be read: ${keychain.problem ?? 'the OS keychain is not in use.'}` });
}

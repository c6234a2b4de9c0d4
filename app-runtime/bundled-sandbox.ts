import { join } from 'node:path';
import { isPrivacyDeskError } from '../shared/errors';
import { SANDBOX_PROFILE_ID } from '../shared/profile';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import type { Desk } from '../core/desk';

export const PREFERRED_SANDBOX_PORT = 4600;

/**
 * The bundled sandbox runs when the operator has no profile yet (so the app is
 * usable at once) or still keeps the Sandbox profile; someone who only has
 * real profiles never gets a background server. A corrupt profiles.json starts
 * nothing: the window reports the corruption instead.
 */
export async function wantsBundledSandbox(desk: Pick<Desk, 'listProfiles'>): Promise<boolean> {
  try {
    const { profiles } = await desk.listProfiles();
    return profiles.length === 0 || profiles.some((profile) => profile.id === SANDBOX_PROFILE_ID);
  } catch (error) {
    if (isPrivacyDeskError(error) && error.code === 'PROFILE_STORE_CORRUPT') return false;
    throw error;
  }
}

async function startOnPreferredPort(dataFile: string, port: number): Promise<RunningSandbox> {
  try {
    return await startSandbox({ port, dataFile, quiet: true });
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // Another sandbox (or anything else) holds the port: any free port will do, the profile follows it.
    return startSandbox({ port: 0, dataFile, quiet: true });
  }
}

/**
 * Starts the sandbox (state kept in <dataDir>/sandbox-state.json) and points the
 * reserved Sandbox profile at it. Returns undefined when it is not wanted.
 * The caller closes it when the app or host stops.
 */
export async function startBundledSandbox(options: { desk: Desk; dataDir: string; port?: number }): Promise<RunningSandbox | undefined> {
  if (!(await wantsBundledSandbox(options.desk))) return undefined;
  const sandbox = await startOnPreferredPort(join(options.dataDir, 'sandbox-state.json'), options.port ?? PREFERRED_SANDBOX_PORT);
  try {
    const { apiKey, apiSecret, applicationName } = sandbox.credentials;
    await options.desk.ensureSandboxProfile({ url: sandbox.url, credentials: { apiKey, apiSecret }, applicationName });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return sandbox;
}

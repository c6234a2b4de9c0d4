import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../core/credential-store';
import { writeTeamSetting } from '../core/team/team-settings';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { startAppRuntime, type AppRuntime } from './app-runtime';

/**
 * The console in team mode with the team database away: it opens all the same, says which database it works on,
 * and an act stops before anything is sent, in words; going back to local files from the console works at once.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(): Promise<{ runtime: AppRuntime; sandbox: RunningSandbox }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-team-runtime-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // Nothing listens on port 1 of this computer: the database is away.
  await writeTeamSetting(dataDir, { format: 1, address: 'postgres://desk@127.0.0.1:1/team', connectedAt: '2026-11-24T22:00:00.000Z', connectedBy: { operator: 'dpo', desktop: 'desk-1' } });
  const sandbox = await startSandbox({ users: 5 });
  cleanups.push(() => sandbox.close());
  const runtime = await startAppRuntime({
    dataDir,
    bundledSandbox: false,
    version: '9.9.9',
    locale: 'en-GB',
    env: { PRIVACY_DESK_DATABASE_PASSWORD: 'whatever-it-is' },
    openCredentials: async () => ({ store: createSessionCredentialStore() }),
  });
  cleanups.push(() => runtime.close());
  return { runtime, sandbox };
}

describe('the console in team mode', () => {
  it('opens with the database away, names it, and sends no act while it cannot record it; back to local files at once', async () => {
    const { runtime, sandbox } = await start();
    expect(runtime.appInfo().team).toEqual({ where: 'postgres://desk@127.0.0.1:1/team' });
    const { apiKey, apiSecret, applicationName } = sandbox.credentials;
    const profile = await runtime.handlers['profiles.save']({ name: 'Sandbox', baseUrl: sandbox.url, applicationName, apiKey, apiSecret });
    const uid = (await runtime.handlers['users.list']({ profileId: profile.id, page: 1, perPage: 5 })).users[0]!.uid!;

    const erased = await runtime.handlers['users.erase']({ profileId: profile.id, action: 'delete', uid, confirmUid: uid, logoutFirst: false }).catch((error: unknown) => error);
    expect(erased).toMatchObject({ outcome: 'not-sent' });
    expect(String((erased as Error).message)).toMatch(/team database could not be reached/);
    const state = (await (await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`)).json()) as { state: string };
    expect(state.state).toBe('active');

    const status = await runtime.handlers['team.status']({});
    expect(status).toMatchObject({ mode: 'team', reachable: false, password: 'environment', problem: { code: 'TEAM_STORE_UNAVAILABLE' } });

    expect(await runtime.handlers['team.disconnect']({})).toEqual({ where: 'postgres://desk@127.0.0.1:1/team' });
    expect(runtime.appInfo().team).toBeUndefined();
    // The same handlers now reach the local files: the act goes through and is recorded in audit.jsonl.
    await runtime.handlers['users.erase']({ profileId: profile.id, action: 'delete', uid, confirmUid: uid, logoutFirst: false });
    expect((await runtime.handlers['audit.read']({})).entries.some((entry) => entry.uid === uid && entry.outcome === 'done')).toBe(true);
  });
});

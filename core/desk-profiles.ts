import type { z } from 'zod';
import { PrivacyDeskError, invalidInput } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import { bridgeContract, type BridgeParsedInput, type ProfileView } from '../shared/contract';
import { credentialsSchema, isLocalBaseUrl, profileSchema, SANDBOX_PROFILE_ID, type Credentials, type Profile } from '../shared/profile';
import { baseUrlOrigin } from '../shared/credential-origin';
import { normalizeBaseUrl } from './input-problems';
import type { CredentialStore } from './credential-store';
import { assertUniqueName, findProfile, makeProfileId, profileNotFound, type ProfileStore } from './profile-store';

export type SaveProfileInput = BridgeParsedInput<'profiles.save'>;

interface DeskProfilesDeps {
  store: ProfileStore;
  credentialStore: CredentialStore;
  /** Called with a profile id whose connection details changed (the Desk drops its cached client). */
  onChange: (profileId: string) => void;
}

export const SANDBOX_PROFILE_NAME = 'Sandbox';
const SANDBOX_APPLICATION_NAME = 'sandbox-app';

/** Profile bookkeeping for the Desk: non-secret fields in profiles.json, key and secret in the credential store. */
export function createDeskProfiles({ store, credentialStore, onChange }: DeskProfilesDeps) {
  const toView = async (profile: Profile): Promise<ProfileView> => {
    // A keychain that fails now must not hide the whole list; using the profile reports the real problem.
    const credentials = await credentialStore.get(profile.id).catch(() => null);
    const view: ProfileView = {
      id: profile.id,
      name: profile.name,
      baseUrl: profile.baseUrl,
      applicationName: profile.applicationName,
      isLocal: isLocalBaseUrl(profile.baseUrl),
      hasCredentials: credentials !== null,
      credentialStorage: credentials ? credentialStore.kind : 'none',
    };
    if (credentials) view.apiKeyHint = credentials.apiKey.slice(-4);
    return view;
  };

  const saveProfile = async (raw: SaveProfileInput): Promise<ProfileView> => {
    const checked = bridgeContract['profiles.save'].input.safeParse(raw);
    if (!checked.success) throw invalidInput(fieldProblem(checked.error));
    const input = checked.data;
    const creating = input.id === undefined;
    const given = { apiKey: blankToUndefined(input.apiKey), apiSecret: blankToUndefined(input.apiSecret) };
    let saved: Profile;
    let writtenId: string | undefined;
    try {
      saved = await store.update(async (data) => {
        const id = input.id ?? makeProfileId(input.name, data.profiles.map((p) => p.id));
        const previous = creating ? undefined : findProfile(data, id);
        const profile = validateProfile({ id, name: input.name, baseUrl: input.baseUrl, applicationName: input.applicationName });
        assertUniqueName(data, profile.name, id);
        const origin = originOf(profile.baseUrl);
        const stored = creating ? null : await credentialStore.get(id);
        // Entries written before the binding existed belong to the address the profile had until now.
        const boundOrigin = stored ? (stored.origin ?? (previous && baseUrlOrigin(previous.baseUrl))) : undefined;
        if (stored && boundOrigin !== origin && (given.apiKey === undefined || given.apiSecret === undefined)) {
          throw invalidInput(msg('profile.addressMoved', { name: profile.name, from: boundOrigin ?? msg('address.old'), to: origin }));
        }
        if (given.apiKey !== undefined || given.apiSecret !== undefined || !stored || stored.origin === undefined) {
          const merged = { apiKey: given.apiKey ?? stored?.apiKey, apiSecret: given.apiSecret ?? stored?.apiSecret };
          await credentialStore.set(id, validateCredentials(merged), origin);
          writtenId = id;
        }
        const index = data.profiles.findIndex((p) => p.id === id);
        if (index >= 0) data.profiles[index] = profile;
        else data.profiles.push(profile);
        if (data.activeId === null) data.activeId = id; // the first profile is the one in use
        return profile;
      });
    } catch (error) {
      // A new profile whose file write failed must not leave an orphan keychain entry.
      if (creating && writtenId !== undefined) await credentialStore.delete(writtenId).catch(() => undefined);
      throw error;
    }
    onChange(saved.id);
    return toView(saved);
  };

  return {
    async listProfiles(): Promise<{ profiles: ProfileView[]; activeId: string | null }> {
      const data = await store.read();
      return { profiles: await Promise.all(data.profiles.map(toView)), activeId: data.activeId };
    },

    saveProfile,

    async removeProfile(id: string, confirmName: string): Promise<{ removed: true }> {
      const profile = findProfile(await store.read(), id);
      if (confirmName !== profile.name) {
        throw new PrivacyDeskError({
          code: 'CONFIRMATION_MISMATCH',
          text: msg('profile.nameMismatch', { name: profile.name }),
        });
      }
      // Keychain entry first: if that fails the profile stays listed and the operator can retry.
      await credentialStore.delete(id);
      await store.update((data) => {
        data.profiles = data.profiles.filter((p) => p.id !== id);
        if (data.activeId === id) data.activeId = null; // never silently switch to another (possibly live) service
      });
      onChange(id);
      return { removed: true };
    },

    async setActiveProfile(id: string): Promise<{ activeId: string }> {
      await store.update((data) => {
        findProfile(data, id);
        data.activeId = id;
      });
      return { activeId: id };
    },

    async getProfile(id: string): Promise<Profile> {
      return findProfile(await store.read(), id);
    },

    async findProfile(idOrName: string): Promise<Profile> {
      const data = await store.read();
      const wanted = idOrName.trim().toLocaleLowerCase();
      const found = data.profiles.find((p) => p.id === idOrName) ?? data.profiles.find((p) => p.name.trim().toLocaleLowerCase() === wanted);
      if (!found) throw profileNotFound(idOrName);
      return found;
    },

    /** Creates or refreshes the reserved `sandbox` profile; it becomes active only when nothing else is. */
    async ensureSandboxProfile(input: { url: string; credentials: Credentials; applicationName?: string }): Promise<ProfileView> {
      const credentials = validateCredentials(input.credentials);
      const profile = await store.update(async (data) => {
        const clash = data.profiles.some((p) => p.id !== SANDBOX_PROFILE_ID && p.name.toLocaleLowerCase() === SANDBOX_PROFILE_NAME.toLocaleLowerCase());
        const sandbox = validateProfile({
          id: SANDBOX_PROFILE_ID,
          name: clash ? `${SANDBOX_PROFILE_NAME} (bundled)` : SANDBOX_PROFILE_NAME,
          baseUrl: input.url,
          applicationName: input.applicationName ?? SANDBOX_APPLICATION_NAME,
        });
        // Its port moves between launches: it re-binds its own credentials to wherever it runs now.
        await credentialStore.set(SANDBOX_PROFILE_ID, credentials, originOf(sandbox.baseUrl));
        const index = data.profiles.findIndex((p) => p.id === SANDBOX_PROFILE_ID);
        if (index >= 0) data.profiles[index] = sandbox;
        else data.profiles.push(sandbox);
        if (data.activeId === null) data.activeId = SANDBOX_PROFILE_ID;
        return sandbox;
      });
      onChange(SANDBOX_PROFILE_ID);
      return toView(profile);
    },

    /** Validates a connection that is not stored (CLI --base-url/--app). */
    validateTemporary(input: { id: string; name?: string; baseUrl: string; applicationName: string; credentials: Credentials }): Profile {
      validateCredentials(input.credentials);
      return validateProfile({ id: input.id, name: input.name ?? connectionLabel(input.baseUrl), baseUrl: input.baseUrl, applicationName: input.applicationName });
    },
  };
}

/** Names a --base-url connection after its host, so messages say which service answered. */
function connectionLabel(baseUrl: string): string {
  try {
    return new URL(baseUrl.trim()).host || 'command-line connection';
  } catch {
    return 'command-line connection'; // normalizeBaseUrl then explains what is wrong with the address
  }
}

/** The origin of a validated base URL. */
function originOf(baseUrl: string): string {
  const origin = baseUrlOrigin(baseUrl);
  if (origin === undefined) throw invalidInput(msg('baseUrl.notAUrl', { input: baseUrl }));
  return origin;
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function validateProfile(input: Profile): Profile {
  const candidate = { ...input, name: input.name.trim(), applicationName: input.applicationName.trim(), baseUrl: normalizeBaseUrl(input.baseUrl) };
  const parsed = profileSchema.safeParse(candidate);
  if (!parsed.success) throw invalidInput(fieldProblem(parsed.error));
  return parsed.data;
}

const MISSING_FIELD: Record<string, MessageText> = {
  name: msg('profile.nameRequired'),
  applicationName: msg('profile.applicationRequired'),
  apiKey: msg('credentials.apiKeyRequired'),
  apiSecret: msg('credentials.apiSecretRequired'),
};

/** What to fix: the one field left empty, in words, else the fields that are not valid (never their values). */
function fieldProblem(error: z.ZodError): MessageText {
  const fields = [...new Set(error.issues.map((issue) => String(issue.path[0] ?? '')))];
  const only = error.issues.length === 1 && error.issues[0]?.code === 'too_small' ? MISSING_FIELD[fields[0] ?? ''] : undefined;
  return only ?? msg('profile.incomplete', { fields: fields.join(', ') || '/' });
}

function validateCredentials(input: { apiKey?: string; apiSecret?: string }): Credentials {
  if (!input.apiKey?.trim() && !input.apiSecret) throw invalidInput(msg('credentials.missing'));
  const parsed = credentialsSchema.safeParse({ apiKey: input.apiKey?.trim() ?? '', apiSecret: input.apiSecret ?? '' });
  // Never echoes the values.
  if (!parsed.success) throw invalidInput(fieldProblem(parsed.error));
  return parsed.data;
}

import { z } from 'zod';
import { invalidInput } from './errors';

export const profileIdSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'a profile id is lower-case letters, digits and dashes');

/** The non-secret part of a connection profile: safe to store in a file and to show. */
export const profileSchema = z.object({
  id: profileIdSchema,
  name: z.string().trim().min(1, 'Give the profile a name.').max(100),
  baseUrl: z.string().min(1),
  applicationName: z.string().trim().min(1, 'Enter the application name (its short name in the service’s administration panel).').max(200),
});
export type Profile = z.infer<typeof profileSchema>;

/** The secret part: lives in the OS keychain (or, where none works, in memory for this session). */
export const credentialsSchema = z.object({
  apiKey: z.string().trim().min(1, 'Enter the API key.'),
  apiSecret: z.string().min(1, 'Enter the secret key.'),
});
export type Credentials = z.infer<typeof credentialsSchema>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname.endsWith('.localhost');
}

/**
 * Normalises what an operator pastes as the service's address: trailing
 * slashes and a pasted `/api/v1` suffix go; https is required except on
 * loopback (the sandbox). Throws INVALID_INPUT with a message saying what to fix.
 */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalidInput(`"${trimmed}" is not a web address. Enter the service's address, for example https://debate.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidInput(`The address must start with https:// (it starts with ${url.protocol}//).`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw invalidInput('The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).');
  }
  if (url.username || url.password) throw invalidInput('Remove the user name and password from the address; credentials go in the key fields.');
  if (url.search || url.hash) throw invalidInput('Remove the part after ? or # from the address; enter only the service’s base address.');
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/api\/v1$/i, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** True when a base URL points at this computer: the sandbox or a local test server, not live data. */
export function isLocalBaseUrl(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

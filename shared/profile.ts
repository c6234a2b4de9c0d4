import { z } from 'zod';

/** The bundled sandbox profile's fixed id; no generated id can take it (they always carry a suffix). */
export const SANDBOX_PROFILE_ID = 'sandbox';

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

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/**
 * This computer, and nothing a name server could answer for: `localhost`, 127.0.0.0/8 and [::1].
 * Not `*.localhost`: `evil.localhost` is resolved by whatever resolver is configured (and by DNS
 * rebinding), so it earns neither plain http nor the sandbox's inspection routes.
 * `hostname` is a URL's hostname, already lower-cased and with IPv4 in dotted form.
 */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Why a pasted address cannot be a service's base URL; each side turns the code into its own words. */
export type BaseUrlProblem =
  | { code: 'required' }
  | { code: 'not-a-url'; input: string }
  | { code: 'scheme'; protocol: string }
  | { code: 'https-required' }
  | { code: 'credentials-in-url' }
  | { code: 'query-or-fragment' };
export type BaseUrlProblemCode = BaseUrlProblem['code'];

export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; problem: BaseUrlProblem };

/**
 * Checks and normalises what an operator pastes as the service's address:
 * trailing slashes and a pasted `/api/v1` suffix go; https is required except
 * on loopback (the sandbox).
 */
export function checkBaseUrl(input: string): BaseUrlCheck {
  const trimmed = input.trim();
  if (!trimmed) return { ok: false, problem: { code: 'required' } };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: { code: 'not-a-url', input: trimmed } };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: { code: 'scheme', protocol: url.protocol } };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return { ok: false, problem: { code: 'https-required' } };
  if (url.username || url.password) return { ok: false, problem: { code: 'credentials-in-url' } };
  if (url.search || url.hash) return { ok: false, problem: { code: 'query-or-fragment' } };
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '').replace(/\/+$/, '');
  return { ok: true, baseUrl: `${url.protocol}//${url.host}${path}` };
}

export function baseUrlProblem(input: string): BaseUrlProblem | undefined {
  const checked = checkBaseUrl(input);
  return checked.ok ? undefined : checked.problem;
}

/** True when a base URL points at this computer: the sandbox or a local test server, not live data. */
export function isLocalBaseUrl(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

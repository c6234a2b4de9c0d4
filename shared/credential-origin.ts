/**
 * Stored credentials are bound to the origin (scheme, host, port) they were
 * entered for: they are never sent to another one. Moving a profile to another
 * origin means entering the key and secret again. Both sides use these rules.
 */

/** The origin of a base URL ("https://debate.example.com"), or undefined when it is not a web address. */
export function baseUrlOrigin(baseUrl: string): string | undefined {
  try {
    const origin = new URL(baseUrl.trim()).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** True when a profile moving from one address to the other must have its key and secret entered again. */
export function needsCredentialsAgain(previousBaseUrl: string, nextBaseUrl: string): boolean {
  const next = baseUrlOrigin(nextBaseUrl);
  return next !== undefined && next !== baseUrlOrigin(previousBaseUrl);
}

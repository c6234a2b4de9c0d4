/**
 * Last line of defence: text that came from the service (an error
 * description, a body excerpt) could echo what we sent it. Before such text
 * goes into an error message, every known secret is cut out of it.
 */
export type SecretSource = () => Iterable<string | undefined>;

const REDACTED = '[redacted]';
// Secrets shorter than this would redact ordinary words; real keys and tokens are far longer.
const MIN_SECRET_LENGTH = 6;

export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    out = out.split(secret).join(REDACTED);
    // A form-encoded or URL-encoded echo of the secret is the same leak.
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  // Never let an Authorization header or a bearer credential through, whatever it holds.
  return out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, REDACTED);
}

/** Shortens service-provided text for a message: one line, bounded length. */
export function excerpt(text: string, max = 200): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** Query parameters whose values never reach the log. */
const SECRET_PARAMETERS = new Set(['api_key', 'client_secret', 'access_token', 'token', 'logout_token', 'client_id']);

/** The URL as sent (uid still percent-encoded), with secret query values replaced. */
export function loggableUrl(rawUrl: string): string {
  const questionMark = rawUrl.indexOf('?');
  if (questionMark < 0) return rawUrl;
  const path = rawUrl.slice(0, questionMark);
  const query = rawUrl
    .slice(questionMark + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return SECRET_PARAMETERS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** `status` is the answer's status, or what became of it ('dropped', '200, answer lost'). */
export function requestLine(method: string, rawUrl: string, status: number | string, elapsedMs: number): string {
  return `${method} ${loggableUrl(rawUrl)} ${status} ${Math.round(elapsedMs)}ms`;
}

/**
 * Who may talk to the sandbox. It listens on this computer with well-known
 * credentials and test routes that reset or rewrite its data, so no web page
 * may drive it: not a cross-site form or fetch (Origin, Sec-Fetch-Site), and
 * not a page whose own name was re-pointed at 127.0.0.1 (DNS rebinding: the
 * Host header still names the page's site). The core and the CLI send no
 * Origin and the Host of the sandbox's own address, so they pass.
 */

export interface GuardedRequest {
  path: string;
  host: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
  /** The address and port the connection arrived on (the socket's local end). */
  localAddress: string | undefined;
  localPort: number | undefined;
}

/** The names by which this computer reaches the sandbox, plus the address it was reached on (when bound to a LAN address on purpose). */
export function allowedHosts(localAddress: string | undefined, localPort: number | undefined): Set<string> {
  if (localPort === undefined) return new Set();
  const hosts = new Set([`127.0.0.1:${localPort}`, `localhost:${localPort}`, `[::1]:${localPort}`]);
  if (localAddress) {
    const address = localAddress.replace(/^::ffff:/i, '').toLowerCase();
    hosts.add(address.includes(':') ? `[${address}]:${localPort}` : `${address}:${localPort}`);
  }
  return hosts;
}

/**
 * The refusal for a request the sandbox must not serve, or null. Every route
 * gets the Host and Sec-Fetch-Site checks. Origin: the /sandbox/ routes accept
 * none or their own; the service routes also accept `null`, which Chromium's
 * network stack (Electron's net.fetch in the app) has been seen to send, and which
 * a page's sandboxed frame can only send along with Sec-Fetch-Site: cross-site.
 */
export function sandboxRequestRefusal(request: GuardedRequest): string | null {
  const hosts = allowedHosts(request.localAddress, request.localPort);
  if (!request.host || !hosts.has(request.host.toLowerCase())) {
    return 'Refused: the sandbox answers only to its own address (127.0.0.1, localhost or [::1] with its port).';
  }
  const site = request.fetchSite?.toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return 'Refused: this request came from a web page on another site.';
  }
  if (request.origin !== undefined) {
    const origin = request.origin.toLowerCase();
    const own = origin === `http://${request.host.toLowerCase()}`;
    const testRoute = request.path === '/sandbox' || request.path.startsWith('/sandbox/');
    if (!own && (testRoute || origin !== 'null')) return 'Refused: this request came from a web page that is not the sandbox.';
  }
  return null;
}

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
  /** The address the connection arrived on (the socket's local end). */
  localAddress: string | undefined;
}

/**
 * The host names by which this computer reaches the sandbox, plus the address the connection came in
 * on (when bound to a LAN address on purpose). Any port: a test proxy in front of the sandbox forwards
 * its own Host, and a rebinding page can only send its own name, which is never one of these.
 */
export function allowedHostNames(localAddress: string | undefined): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  if (localAddress) {
    const address = localAddress.replace(/^::ffff:/i, '').toLowerCase();
    names.add(address.includes(':') ? `[${address}]` : address);
  }
  return names;
}

/** The host name of a Host header ("name:port", "[v6]:port"), lower-cased; undefined when it is not one. */
function hostNameOf(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase();
}

/**
 * The refusal for a request the sandbox must not serve, or null. Every route
 * gets the Host and Sec-Fetch-Site checks. Origin: the /sandbox/ routes accept
 * none or their own; the service routes also accept `null`, which Chromium's
 * network stack (Electron's net.fetch in the app) has been seen to send, and which
 * a page's sandboxed frame can only send along with Sec-Fetch-Site: cross-site.
 */
export function sandboxRequestRefusal(request: GuardedRequest): string | null {
  const name = request.host === undefined ? undefined : hostNameOf(request.host);
  if (!name || !allowedHostNames(request.localAddress).has(name)) {
    return 'Refused: the sandbox answers only to this computer’s own names (127.0.0.1, localhost or [::1]).';
  }
  const site = request.fetchSite?.toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return 'Refused: this request came from a web page on another site.';
  }
  if (request.origin !== undefined) {
    const origin = request.origin.toLowerCase();
    const own = origin === `http://${(request.host ?? '').toLowerCase()}`;
    const testRoute = request.path === '/sandbox' || request.path.startsWith('/sandbox/');
    if (!own && (testRoute || origin !== 'null')) return 'Refused: this request came from a web page that is not the sandbox.';
  }
  return null;
}

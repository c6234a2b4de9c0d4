import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import { APP_SCHEME, contentTypeFor, resolveAppFile } from './app-origin';
import { SECURITY_HEADERS } from '../../shared/security-headers';

/** Must run before `app.ready`: makes app:// a secure, standard origin (like https) for the page. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** Serves files of the built renderer (rootDir) only, with the CSP and companion headers. */
export function serveAppProtocol(rootDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    const file = resolveAppFile(rootDir, request.url);
    if (!file) return plain(404, 'Not found');
    let response: Response;
    try {
      response = await net.fetch(pathToFileURL(file).toString());
    } catch {
      return plain(404, 'Not found');
    }
    if (!response.ok) return plain(404, 'Not found');
    return new Response(response.body, {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeFor(file), 'Cache-Control': 'no-cache' },
    });
  });
}

import { extname, resolve, sep } from 'node:path';

/**
 * The app's own origin: the built renderer is served from app://privacy-desk/
 * by a privileged custom protocol, never from file:// (which would give the
 * page access to every file the user can read). Pure functions, no electron
 * import, so they are unit-tested without Electron.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'privacy-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/**
 * True for URLs on our own origin. Compared by scheme and host: WHATWG URL
 * gives non-special schemes an opaque origin ("null"), so `.origin` can't be used.
 */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/** True for a blob: URL our own page made (blob:app://privacy-desk/<uuid>): what an export download looks like. */
export function isOwnBlobUrl(url: string): boolean {
  return url.startsWith('blob:') && isAppUrl(url.slice('blob:'.length));
}

/**
 * Maps an app:// request to a file inside rootDir, or null when it must be
 * refused: another host, traversal out of rootDir (`..`, encoded or not),
 * hidden files, NUL bytes, undecodable escapes.
 */
export function resolveAppFile(rootDir: string, requestUrl: string): string | null {
  if (!isAppUrl(requestUrl)) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  if (pathname === '' || pathname.endsWith('/')) pathname += 'index.html';
  const segments = pathname.split('/').filter((segment) => segment.length > 0);
  if (segments.some((segment) => segment.startsWith('.'))) return null; // "..", ".env", ".git"…
  const root = resolve(rootDir);
  const file = resolve(root, ...segments);
  return file.startsWith(root + sep) ? file : null;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Set explicitly: module scripts are refused unless served with a JavaScript type, and nosniff forbids guessing. */
export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Links the window may hand to the OS browser: https only (no file:, javascript:, custom schemes). */
export function externalUrlToOpen(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

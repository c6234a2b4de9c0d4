import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_START_URL, contentTypeFor, externalUrlToOpen, isAppUrl, isOwnBlobUrl, resolveAppFile } from './app-origin';

const root = resolve('/opt/privacy-desk/dist/renderer');

describe('resolveAppFile (the app:// protocol guard)', () => {
  it('maps the start page and assets to files inside the renderer folder', () => {
    expect(resolveAppFile(root, APP_START_URL)).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://privacy-desk/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://privacy-desk/assets/index-abc123.js')).toBe(join(root, 'assets', 'index-abc123.js'));
    expect(resolveAppFile(root, 'app://privacy-desk/assets/my%20font.woff2')).toBe(join(root, 'assets', 'my font.woff2'));
  });

  it('ignores the query string and fragment', () => {
    expect(resolveAppFile(root, 'app://privacy-desk/index.html?x=1#/users')).toBe(join(root, 'index.html'));
  });

  it('keeps dot segments the URL parser resolves inside the renderer folder', () => {
    // new URL() already turns /../../etc/passwd (plain or %2e-encoded) into /etc/passwd.
    expect(resolveAppFile(root, 'app://privacy-desk/../../etc/passwd')).toBe(join(root, 'etc', 'passwd'));
    expect(resolveAppFile(root, 'app://privacy-desk/%2e%2e/%2e%2e/etc/passwd')).toBe(join(root, 'etc', 'passwd'));
  });

  it.each([
    ['.. hidden behind an encoded slash', 'app://privacy-desk/assets%2f..%2f..%2f..%2fpackage.json'],
    ['encoded backslash', 'app://privacy-desk/..%5c..%5cpackage.json'],
    ['NUL byte', 'app://privacy-desk/index.html%00.png'],
    ['hidden file', 'app://privacy-desk/.env'],
    ['broken escape', 'app://privacy-desk/%E0%A4%A'],
    ['another host', 'app://evil/index.html'],
    ['another scheme', 'file:///etc/passwd'],
    ['https look-alike', 'https://privacy-desk/index.html'],
  ])('refuses %s', (_label, url) => {
    expect(resolveAppFile(root, url)).toBeNull();
  });
});

describe('isOwnBlobUrl', () => {
  it('accepts a blob our page made and nothing else', () => {
    expect(isOwnBlobUrl('blob:app://privacy-desk/0b7c6f8e-1d2a-4c1e-9f55-1b2c3d4e5f60')).toBe(true);
    expect(isOwnBlobUrl('blob:https://evil.example/0b7c6f8e')).toBe(false);
    expect(isOwnBlobUrl('blob:app://privacy-desk.evil.example/0b7c6f8e')).toBe(false);
    expect(isOwnBlobUrl('app://privacy-desk/index.html')).toBe(false);
    expect(isOwnBlobUrl('https://privacy-desk/blob:app://privacy-desk/x')).toBe(false);
  });
});

describe('isAppUrl', () => {
  it('accepts only app://privacy-desk', () => {
    expect(isAppUrl('app://privacy-desk/index.html')).toBe(true);
    expect(isAppUrl('app://privacy-desk.evil.example/')).toBe(false);
    expect(isAppUrl('app://user@privacy-desk/')).toBe(false);
    expect(isAppUrl('http://127.0.0.1:4610/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('externalUrlToOpen', () => {
  it('lets only https links reach the OS browser', () => {
    expect(externalUrlToOpen('https://docs.example.org/privacy')).toBe('https://docs.example.org/privacy');
    expect(externalUrlToOpen('http://example.org/')).toBeNull();
    expect(externalUrlToOpen('file:///etc/passwd')).toBeNull();
    expect(externalUrlToOpen('javascript:alert(1)')).toBeNull();
    expect(externalUrlToOpen('smb://server/share')).toBeNull();
    expect(externalUrlToOpen('https://user:pw@example.org/')).toBeNull();
  });
});

describe('contentTypeFor', () => {
  it('gives module scripts a JavaScript type (nosniff forbids guessing)', () => {
    expect(contentTypeFor('/x/assets/index.js')).toMatch(/^text\/javascript/);
    expect(contentTypeFor('/x/index.html')).toMatch(/^text\/html/);
    expect(contentTypeFor('/x/assets/a.CSS')).toMatch(/^text\/css/);
    expect(contentTypeFor('/x/unknown.bin')).toBe('application/octet-stream');
  });
});

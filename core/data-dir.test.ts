import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDataDir, resolveDataDir } from './data-dir';

describe('resolveDataDir', () => {
  it('PRIVACY_DESK_DATA_DIR wins on every platform', () => {
    expect(resolveDataDir({ PRIVACY_DESK_DATA_DIR: '/tmp/pd', HOME: '/home/a' }, 'linux')).toBe('/tmp/pd');
    expect(resolveDataDir({ PRIVACY_DESK_DATA_DIR: 'D:\\pd', APPDATA: 'C:\\x' }, 'win32')).toBe('D:\\pd');
  });

  it('matches Electron userData for the package name on each OS', () => {
    expect(resolveDataDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/home/a/.cfg' }, 'linux')).toBe('/home/a/.cfg/privacy-desk');
    expect(resolveDataDir({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/privacy-desk');
    expect(resolveDataDir({ HOME: '/Users/a' }, 'darwin')).toBe('/Users/a/Library/Application Support/privacy-desk');
    expect(resolveDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming', HOME: '/x' }, 'win32')).toBe('C:\\Users\\a\\AppData\\Roaming\\privacy-desk');
  });

  it('creates a missing folder readable by its owner only', () => {
    const parent = mkdtempSync(join(tmpdir(), 'data-dir-'));
    try {
      const dir = ensureDataDir(join(parent, 'a', 'privacy-desk'));
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

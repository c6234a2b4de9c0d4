import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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

  // POSIX rights; on Windows the folder inherits the user profile's ACL.
  it.skipIf(process.platform === 'win32')('narrows a folder that already existed with loose rights to 0700, its files to 0600', () => {
    const parent = mkdtempSync(join(tmpdir(), 'data-dir-'));
    try {
      const dir = join(parent, 'privacy-desk');
      mkdirSync(join(dir, 'profiles.lock'), { recursive: true });
      writeFileSync(join(dir, 'audit.jsonl'), '{}\n');
      writeFileSync(join(dir, 'profiles.json'), '{}');
      const outside = join(parent, 'elsewhere.txt');
      writeFileSync(outside, 'not ours');
      chmodSync(outside, 0o644);
      symlinkSync(outside, join(dir, 'link'));
      chmodSync(join(dir, 'audit.jsonl'), 0o644);
      chmodSync(join(dir, 'profiles.json'), 0o666);
      chmodSync(join(dir, 'profiles.lock'), 0o755);
      chmodSync(dir, 0o755);

      expect(ensureDataDir(dir)).toBe(dir);

      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'audit.jsonl')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'profiles.json')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'profiles.lock')).mode & 0o777).toBe(0o700);
      // A link is not followed out of the folder.
      expect(statSync(outside).mode & 0o777).toBe(0o644);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/SECURITY.md lists what we ship so `npm audit --omit=dev` can be run elsewhere when the
// registry does not answer here; these checks keep that page true when package-lock.json moves.
const ROOT = join(import.meta.dirname, '..', '..');
const security = readFileSync(join(ROOT, 'docs', 'SECURITY.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

function listShipped(...args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'list-shipped-deps.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
}

describe('docs/SECURITY.md and the shipped dependencies', () => {
  it('lists exactly what package-lock.json ships (regenerate with npm run deps:shipped)', () => {
    const block = /<!-- shipped-deps:start[^>]*-->\n```\n([\s\S]*?)```\n<!-- shipped-deps:end -->/.exec(security);
    expect(block, 'the shipped-deps block is in docs/SECURITY.md').not.toBeNull();
    expect(block![1]).toBe(listShipped());
    expect(listShipped().split('\n').filter(Boolean).every((line) => /^(@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+/.test(line))).toBe(true);
  });

  it('names every package.json dependency with its exact version', () => {
    expect(security).toContain(listShipped('--direct', '--markdown').trim());
  });

  it('the "Current Electron" item names the Electron package.json pins', () => {
    const pinned = manifest.devDependencies.electron ?? '';
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(security).toMatch(new RegExp(`\\| 16 \\| Current Electron \\| .*"electron": "${pinned.replaceAll('.', '\\.')}"`));
  });
});

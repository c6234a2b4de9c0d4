import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DATA_LOCK_TIMINGS, PROFILES_LOCK, lockPathFor, withDataLock } from './data-lock';

const dataLockModule = resolve(import.meta.dirname, 'data-lock.ts');

/** Starts a real process that takes the profiles lock and keeps it until killed. */
async function startHolder(dataDir: string) {
  const code = `
    import { withDataLock, PROFILES_LOCK } from ${JSON.stringify(dataLockModule)};
    await withDataLock(process.argv[1], PROFILES_LOCK, () => new Promise(() => { console.log('held'); setInterval(() => {}, 60_000); }));
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  expect(chunk.toString()).toContain('held');
  return child;
}

describe('withDataLock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-lock-'));
  });
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs one holder at a time and leaves no lock behind', async () => {
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        withDataLock(dir, PROFILES_LOCK, async () => {
          most = Math.max(most, ++inside);
          await new Promise((done) => setImmediate(done));
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creates a missing data folder readable by its owner only', async () => {
    const fresh = join(dir, 'new', 'privacy-desk');
    await withDataLock(fresh, PROFILES_LOCK, () => undefined);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it('lets go when the task fails, so the next holder gets in at once', async () => {
    await expect(withDataLock(dir, PROFILES_LOCK, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(withDataLock(dir, PROFILES_LOCK, () => 'next', { waitMs: 0 })).resolves.toBe('next');
  });

  it('refuses with a clear message, running nothing, while another holder keeps the lock', async () => {
    mkdirSync(lockPathFor(dir, PROFILES_LOCK)); // a live holder's lock: fresh mtime
    const task = vi.fn();
    const attempt = withDataLock(dir, PROFILES_LOCK, task, { waitMs: 0 });
    await expect(attempt).rejects.toMatchObject({ name: 'PrivacyDeskError' });
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toContain(`Another Privacy Desk process (the app or a CLI command) is changing the profile list in ${dir}`);
    expect(message).toContain('nothing was changed');
    expect(message).toContain(`delete the folder ${lockPathFor(dir, PROFILES_LOCK)}`);
    expect(task).not.toHaveBeenCalled();
  });

  it('reports a lock it cannot create at once, without waiting as for a busy one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // a retry would wait forever here
    const unusable = { name: 'x'.repeat(300), what: 'the test data' }; // longer than a file name may be
    await expect(withDataLock(dir, unusable, () => 'never')).rejects.toMatchObject({
      name: 'PrivacyDeskError',
      message: expect.stringMatching(/^Privacy Desk could not lock the test data in .*, so nothing was changed\. Check that the folder .* \(ENAMETOOLONG\)$/),
    });
  });

  it('takes over the lock a killed process left once it is stale', async () => {
    const holder = await startHolder(dir);
    holder.kill('SIGKILL'); // no exit handler runs: the lock folder stays
    await once(holder, 'exit');
    const lockPath = lockPathFor(dir, PROFILES_LOCK);
    expect(existsSync(lockPath)).toBe(true);
    await expect(withDataLock(dir, PROFILES_LOCK, () => 'too early', { waitMs: 0 })).rejects.toMatchObject({ name: 'PrivacyDeskError' });

    // Nobody refreshes a dead holder's lock: age it past the stale limit instead of waiting.
    const longAgo = new Date(Date.now() - DATA_LOCK_TIMINGS.STALE_MS - 1_000);
    utimesSync(lockPath, longAgo, longAgo);
    await expect(withDataLock(dir, PROFILES_LOCK, () => 'recovered', { waitMs: 0 })).resolves.toBe('recovered');
    expect(existsSync(lockPath)).toBe(false);
  });

  it('stops a holder whose lock was lost before it makes its write visible', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const written = vi.fn();
    const attempt = withDataLock(dir, PROFILES_LOCK, async (hold) => {
      rmSync(lockPathFor(dir, PROFILES_LOCK), { recursive: true }); // someone removed our lock folder
      const lost = new Promise((done) => hold.signal.addEventListener('abort', done));
      await vi.advanceTimersByTimeAsync(DATA_LOCK_TIMINGS.REFRESH_MS); // the refresh finds it gone
      await lost;
      hold.assertHeld();
      written();
    });
    await expect(attempt).rejects.toMatchObject({ name: 'PrivacyDeskError', message: expect.stringContaining(`lost its lock on the profile list in ${dir}`) });
    expect(written).not.toHaveBeenCalled();
  });
});

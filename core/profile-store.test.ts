import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROFILES_LOCK, lockPathFor } from './data-lock';
import { makeProfileId, openProfileStore } from './profile-store';

describe('profile store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'profile-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const sample = { id: 'prod-abc123', name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'news' };

  it('writes version 1 JSON atomically (no temp file left, owner-only file)', async () => {
    const store = openProfileStore(dir);
    await store.update((data) => {
      data.profiles.push(sample);
      data.activeId = sample.id;
    });
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ version: 1, activeId: sample.id, profiles: [sample] });
    expect(readdirSync(dir)).toEqual(['profiles.json']); // no temp file, and the lock is let go
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('serialises concurrent updates so none is lost', async () => {
    const store = openProfileStore(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update((data) => {
          data.profiles.push({ ...sample, id: `p-${i}`, name: `P ${i}` });
        }),
      ),
    );
    expect((await store.read()).profiles).toHaveLength(20);
  });

  it('keeps every save when two stores on one folder write at once (each re-reads under the lock)', async () => {
    const here = openProfileStore(dir);
    const elsewhere = openProfileStore(dir); // its own store, as another process would have
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        here.update((data) => void data.profiles.push({ ...sample, id: `here-${i}`, name: `Here ${i}` })),
        elsewhere.update((data) => void data.profiles.push({ ...sample, id: `elsewhere-${i}`, name: `Elsewhere ${i}` })),
      ]).flat(),
    );
    expect((await here.read()).profiles).toHaveLength(20);
  });

  it('leaves the file untouched and no temp file behind when the profiles lock cannot be had', async () => {
    const store = openProfileStore(dir);
    await store.update((data) => void data.profiles.push(sample));
    const before = readFileSync(store.path, 'utf8');
    mkdirSync(lockPathFor(dir, PROFILES_LOCK)); // another process holds it
    const impatient = openProfileStore(dir, { waitMs: 0 });
    await expect(impatient.update((data) => void data.profiles.push({ ...sample, id: 'late-1', name: 'Late' }))).rejects.toMatchObject({
      message: expect.stringMatching(/^Another Privacy Desk process \(the app or a CLI command\) is changing the profile list in .*, so nothing was changed\./),
    });
    expect(readFileSync(store.path, 'utf8')).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['profiles.json', 'profiles.lock']); // no temp file
  });

  it('reports a file of the wrong shape with its path and refuses to save over it', async () => {
    writeFileSync(join(dir, 'profiles.json'), JSON.stringify({ version: 2, profiles: [] }));
    const store = openProfileStore(dir);
    await expect(store.read()).rejects.toMatchObject({ code: 'PROFILE_STORE_CORRUPT', message: expect.stringMatching(/profiles\.json cannot be used: it does not have the expected shape \(version/) });
    await expect(store.update(() => undefined)).rejects.toMatchObject({ code: 'PROFILE_STORE_CORRUPT' });
    expect(JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'))).toEqual({ version: 2, profiles: [] });
  });

  it('startFresh leaves a healthy file alone', async () => {
    const store = openProfileStore(dir);
    await store.update((data) => void data.profiles.push(sample));
    expect(await store.startFresh()).toEqual({ setAsidePath: null });
    expect((await store.read()).profiles).toEqual([sample]);
  });

  it('makes ids from the name with a random suffix, never the bare reserved id', () => {
    expect(makeProfileId('Zoë’s Prod / EU')).toMatch(/^zoe-s-prod-eu-[0-9a-f]{6}$/);
    expect(makeProfileId('東京')).toMatch(/^profile-[0-9a-f]{6}$/);
    expect(makeProfileId('Sandbox')).not.toBe('sandbox');
  });
});

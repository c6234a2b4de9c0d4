import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createErasureFeed, serviceKey } from './erasure-feed';

const line = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ at: '2026-11-22T12:00:00.000+01:00', action: 'delete', outcome: 'done', uid: 'u1', profileId: 'p', profileName: 'P', baseUrl: 'http://127.0.0.1:4600', via: 'cli', ...fields })}\n`;

describe('the audit trail as a change feed of erasures', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-feed-'));
    path = join(dir, 'audit.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts where the trail ends and reads only what is appended after', async () => {
    writeFileSync(path, line({ uid: 'before-start' }));
    const feed = createErasureFeed({ path });
    expect(await feed.poll()).toEqual({ erasures: [], lostTrack: false });
    appendFileSync(path, line({ uid: 'after-start' }));
    expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['after-start']);
    expect((await feed.poll()).erasures).toEqual([]);
    expect(feed.erasureOf('before-start', 'p', 'x')).toBeUndefined();
    expect(feed.erasureOf('after-start', 'p', 'x')).toEqual({ action: 'delete', at: '2026-11-22T12:00:00.000+01:00', via: 'cli', outcome: 'done' });
  });

  it('counts done, unknown, verification and a refusal for an unknown uid; not attempts, other refusals, unsent acts or logouts', async () => {
    const feed = createErasureFeed({ path });
    appendFileSync(
      path,
      [
        line({ uid: 'a', outcome: 'attempted' }),
        line({ uid: 'b', outcome: 'refused', errorCode: 'FORBIDDEN' }),
        line({ uid: 'c', outcome: 'not-sent' }),
        line({ uid: 'd', action: 'logout' }),
        line({ uid: 'e', outcome: 'unknown' }),
        line({ uid: 'f', outcome: 'refused', errorCode: 'NOT_FOUND' }),
        line({ uid: 'g', outcome: 'verification' }),
        line({ uid: 'h', action: 'anonymize' }),
        'not json at all\n',
        line({ uid: '', outcome: 'done' }),
      ].join(''),
    );
    expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['e', 'f', 'g', 'h']);
  });

  it('waits for a line still being written, reading big appends a chunk at a time', async () => {
    const feed = createErasureFeed({ path, chunkBytes: 64 });
    const whole = line({ uid: 'slow writer' });
    appendFileSync(path, line({ uid: 'first' }) + whole.slice(0, 40));
    expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['first']);
    appendFileSync(path, whole.slice(40));
    expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['slow writer']);
  });

  it('says it lost track when the trail is replaced or cut, and forgets what it knew', async () => {
    const feed = createErasureFeed({ path });
    appendFileSync(path, line({ uid: 'u1' }) + line({ uid: 'u2' }));
    await feed.poll();
    writeFileSync(path, line({ uid: 'u3' }));
    expect(await feed.poll()).toMatchObject({ lostTrack: true, erasures: [{ uid: 'u3' }] });
    expect(feed.erasureOf('u1', 'p', 'x')).toBeUndefined();
    rmSync(path);
    expect(await feed.poll()).toEqual({ erasures: [], lostTrack: true });
  });

  it('matches an erasure by profile or by service, the address written any way', async () => {
    expect(serviceKey('HTTP://127.0.0.1:4600/api/v1/')).toBe('http://127.0.0.1:4600');
    const feed = createErasureFeed({ path });
    appendFileSync(path, line({ uid: 'u1', profileId: 'temporary', baseUrl: 'http://127.0.0.1:4600/' }));
    await feed.poll();
    expect(feed.erasureOf('u1', 'p', serviceKey('http://127.0.0.1:4600'))).toMatchObject({ action: 'delete' });
    expect(feed.erasureOf('u1', 'p', serviceKey('http://127.0.0.1:4700'))).toBeUndefined();
    expect(feed.erasureOf('u1', 'temporary', 'anything')).toMatchObject({ action: 'delete' });
  });

  it('past its memory limit it forgets and says it lost track, rather than grow', async () => {
    const feed = createErasureFeed({ path, memoryLimit: 2 });
    appendFileSync(path, line({ uid: 'u1' }) + line({ uid: 'u2' }) + line({ uid: 'u3' }));
    expect(await feed.poll()).toMatchObject({ lostTrack: true });
    expect(feed.erasureOf('u3', 'p', 'x')).toBeUndefined();
  });
});

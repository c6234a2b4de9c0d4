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

  it('tells which uids of a page were erased since it was read, how and from where, and whether it kept track all along', async () => {
    let clock = Date.parse('2026-11-22T11:05:00.000Z');
    const feed = createErasureFeed({ path, now: () => clock });
    // The page was read at 12:05 (+01:00): an erasure recorded before it is already in what the service answered.
    const readAt = Date.parse('2026-11-22T12:05:00.000+01:00');
    appendFileSync(
      path,
      [
        line({ uid: 'before', at: '2026-11-22T12:04:59.999+01:00' }),
        line({ uid: 'by-cli', at: '2026-11-22T12:06:00.000+01:00' }),
        line({ uid: 'by-console', action: 'anonymize', via: 'app', at: '2026-11-22T11:07:00.000Z' }),
        line({ uid: 'perhaps', outcome: 'unknown', via: 'batch', at: '2026-11-22T12:08:00.000+01:00' }),
        line({ uid: 'elsewhere', profileId: 'q', baseUrl: 'http://127.0.0.1:4700', at: '2026-11-22T12:09:00.000+01:00' }),
      ].join(''),
    );
    await feed.poll();
    const service = serviceKey('http://127.0.0.1:4600');
    expect(feed.erasuresSince(['before', 'by-cli', 'by-console', 'perhaps', 'elsewhere', 'never'], 'p', service, readAt)).toEqual({
      complete: true,
      erasures: [
        { uid: 'by-cli', action: 'delete', at: '2026-11-22T12:06:00.000+01:00', via: 'cli', outcome: 'done' },
        { uid: 'by-console', action: 'anonymize', at: '2026-11-22T11:07:00.000Z', via: 'app', outcome: 'done' },
        { uid: 'perhaps', action: 'delete', at: '2026-11-22T12:08:00.000+01:00', via: 'batch', outcome: 'unknown' },
      ],
    });
    // The trail replaced after the page was read: what was erased since can no longer be told.
    clock += 60_000;
    writeFileSync(path, line({ uid: 'someone' }));
    await feed.poll();
    expect(feed.erasuresSince(['by-cli'], 'p', service, readAt)).toEqual({ complete: false, erasures: [] });
    // A page read after that is told again.
    expect(feed.erasuresSince(['someone'], 'p', service, clock + 1)).toEqual({ complete: true, erasures: [] });
  });

  it('past its memory limit it forgets and says it lost track, rather than grow', async () => {
    const feed = createErasureFeed({ path, memoryLimit: 2 });
    appendFileSync(path, line({ uid: 'u1' }) + line({ uid: 'u2' }) + line({ uid: 'u3' }));
    expect(await feed.poll()).toMatchObject({ lostTrack: true });
    expect(feed.erasureOf('u3', 'p', 'x')).toBeUndefined();
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeskBatch, MAX_OPEN_DRAFTS } from './desk-batch';
import { draftsDir } from './drafts';

describe('desk.batch drafts: previews not run leave nothing behind', () => {
  let dataDir: string;
  const unused = () => Promise.reject(new Error('not in this test'));
  const batchOf = () => createDeskBatch({ dataDir, getProfile: unused, connectionFor: unused, walkUsers: unused });
  /** Draft ids on disk. */
  const onDisk = () => [...new Set(readdirSync(draftsDir(dataDir)).map((name) => name.slice(0, 32)))].sort();

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'desk-batch-drafts-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('discard removes a preview’s draft; discardOpenDrafts removes every one this process made and did not run', async () => {
    const batch = batchOf();
    const a = await batch.preview({ source: 'alice\nbob', sourceName: 'pasted list' });
    const b = await batch.preview({ source: 'carol', sourceName: 'pasted list' });
    expect(onDisk()).toEqual([a.draftId, b.draftId].sort());
    expect(await batch.discard(a.draftId)).toBe(true);
    expect(await batch.discard(a.draftId)).toBe(false);
    expect(onDisk()).toEqual([b.draftId]);
    batch.discardOpenDrafts();
    expect(onDisk()).toEqual([]);
  });

  it('keeps the newest previews of a process only: many previews cannot fill the disk', async () => {
    const batch = batchOf();
    const ids: string[] = [];
    for (let index = 0; index < MAX_OPEN_DRAFTS + 3; index += 1) ids.push((await batch.preview({ source: `user-${index}`, sourceName: 'pasted list' })).draftId);
    expect(onDisk()).toEqual(ids.slice(3).sort());
  });
});

import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/audit';
import { invalidInput } from '../../shared/errors';
import type { AuditStore } from '../../core/audit-store';
import { createErasureFeed } from '../../core/erasure-feed';

/**
 * One suite for every AuditStore (core/audit-store.ts): what the gate, the runner and the register rely on, the same
 * whether the trail is the data folder's audit.jsonl or the team database. team-audit-store.test.ts runs it on both.
 */
export interface TrailUnderTest {
  store: AuditStore;
  /** Another writer on the same trail, as another process (or desktop) has it. */
  other(): Promise<AuditStore>;
  /** Replaces the stored line of entry `seq`, as a hand with access to the storage would. */
  rewrite(seq: number, change: (line: string) => string): Promise<void>;
  /** Until heal(), the trail cannot be written (a disk that refuses, a database server stopped). */
  breakWrites(): Promise<void>;
  healWrites(): Promise<void>;
  close(): Promise<void>;
}

export interface AuditStoreKind {
  name: string;
  /** Why it cannot run here (printed), or null. */
  skip: string | null;
  /** An empty trail of this kind. */
  fresh(): Promise<TrailUnderTest>;
}

let clock = Date.parse('2026-11-24T09:00:00Z');
export const auditEntry = (uid: string, outcome: AuditEntry['outcome'], extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at: new Date((clock += 1000)).toISOString(),
  action: 'delete',
  uid,
  profileId: 'p',
  profileName: 'P',
  baseUrl: 'https://p.example.com',
  outcome,
  via: 'app',
  operator: 'dpo',
  ...extra,
});

const short = (entries: readonly AuditEntry[]) => entries.map((e) => `${e.uid}:${e.outcome}`);

export function auditStoreSuite(kinds: readonly AuditStoreKind[]): void {
  describe.each(kinds)('the audit trail kept in $name', (kind) => {
    const test = (name: string, body: (trail: TrailUnderTest) => Promise<void>) =>
      it.skipIf(kind.skip !== null)(name, { timeout: 60_000 }, async () => {
        const trail = await kind.fresh();
        try {
          await body(trail);
        } finally {
          await trail.close();
        }
      });

    test('chains what every writer appends into one trail: newest first in a list, oldest first read, numbered 1..n, verified', async ({ store, other }) => {
      await store.append(auditEntry('a', 'attempted'));
      await store.appendMany([auditEntry('a', 'done'), auditEntry('b', 'attempted')]);
      await (await other()).append({ ...auditEntry('b', 'done'), apiSecret: 'leak-me-please' } as AuditEntry);
      expect(short(await store.list(2))).toEqual(['b:done', 'b:attempted']);
      const reading = await store.read();
      expect(short(reading.entries)).toEqual(['a:attempted', 'a:done', 'b:attempted', 'b:done']);
      expect(reading.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(reading.entries.map((e) => e.line)).toEqual([1, 2, 3, 4]);
      expect(reading.entries[0]).toMatchObject({ format: 2, chainId: expect.any(String), before: { lines: 0 } });
      expect(JSON.stringify(reading.entries)).not.toContain('leak-me-please');
      expect(reading.corrupt).toEqual([]);
      expect(reading.outcomeMissing).toEqual([]);
      const verdict = await store.verify();
      expect(verdict).toMatchObject({ ok: true, entries: 4, chainId: reading.entries[0]?.chainId });
      expect(reading.verdict).toMatchObject({ ok: true, entries: 4, headHash: verdict.headHash });
      expect(store.where).toEqual(expect.any(String));
    });

    test('builds an entry from the last line exactly as stored, under the lock of the write', async ({ store }) => {
      const after = (last: string | null) => (last === null ? 'first' : `after ${(JSON.parse(last) as { seq: number; uid: string }).seq}`);
      await store.appendAfterLast((last) => auditEntry('x', 'attempted', { reference: after(last) }));
      await store.appendAfterLast((last) => auditEntry('x', 'done', { reference: after(last) }));
      expect((await store.read()).entries.map((e) => e.reference)).toEqual(['first', 'after 1']);
      // An entry the caller refuses to build after that line: its own refusal, nothing written.
      await expect(
        store.appendAfterLast(() => {
          throw invalidInput('the register changed meanwhile');
        }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'the register changed meanwhile' });
      expect((await store.read()).entries).toHaveLength(2);
    });

    test('verify holds a head hash written down earlier, and says when no entry has it any more', async ({ store }) => {
      await store.append(auditEntry('a', 'attempted'));
      await store.append(auditEntry('a', 'done'));
      const written = (await store.verify()).headHash as string;
      await store.append(auditEntry('b', 'attempted'));
      expect(await store.verify(written)).toMatchObject({ ok: true, entries: 3 });
      expect(await store.verify('0'.repeat(64))).toMatchObject({ ok: false, kind: 'removed', message: expect.stringMatching(/No entry has the hash 0{64}/) });
    });

    test('an entry changed by a hand is found: the next entry no longer links to it', async ({ store, rewrite }) => {
      for (const uid of ['a', 'b', 'c']) await store.append(auditEntry(uid, 'done'));
      await rewrite(2, (line) => line.replace('"uid":"b"', '"uid":"someone-else"'));
      const verdict = await store.verify();
      expect(verdict).toMatchObject({ ok: false, kind: 'edited', line: 2 });
      expect((await store.read()).verdict).toMatchObject({ ok: false, kind: 'edited', line: 2 });
    });

    test('an attempt that cannot be written stops the act (not sent); an outcome is kept, then written first once the trail can be', async (trail) => {
      const { store } = trail;
      await store.append(auditEntry('a', 'attempted'));
      await trail.breakWrites();
      try {
        await expect(store.append(auditEntry('b', 'attempted'))).rejects.toMatchObject({ outcome: 'not-sent' });
        expect(store.pendingCount).toBe(0);
        await expect(store.append(auditEntry('a', 'done'))).rejects.toMatchObject({ outcome: 'not-sent' });
        await expect(store.appendMany([auditEntry('c', 'done'), auditEntry('d', 'attempted')])).rejects.toThrow();
        expect(short(store.pendingEntries())).toEqual(['a:done', 'c:done']);
        expect(await store.flushPending()).toBe(2);
      } finally {
        await trail.healWrites();
      }
      expect(await store.flushPending()).toBe(0);
      await store.append(auditEntry('e', 'attempted'));
      const reading = await store.read();
      expect(short(reading.entries)).toEqual(['a:attempted', 'a:done', 'c:done', 'e:attempted']);
      expect(reading.verdict).toMatchObject({ ok: true, entries: 4 });
    });

    test('its change feed brings what any writer appends after the feed was made, and only that', async ({ store, other }) => {
      await store.append(auditEntry('before', 'done'));
      const feed = createErasureFeed({ source: store.feed() });
      const second = await other();
      await second.append(auditEntry('erased-elsewhere', 'done'));
      await second.append(auditEntry('only-tried', 'attempted'));
      expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['erased-elsewhere']);
      expect((await feed.poll()).erasures).toEqual([]);
      expect(feed.erasureOf('before', 'p', 'x')).toBeUndefined();
    });
  });
}

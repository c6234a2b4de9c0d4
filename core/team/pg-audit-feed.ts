import type pg from 'pg';
import type { AuditFeedNews, AuditFeedSource } from '../audit-store';
import { headNow, rowsAfter } from './pg-audit-rows';

const FEED_PAGE_ROWS = 10_000;

/**
 * The team trail as a change feed: every desktop appends to the same chain, so the rows after the last one read (by
 * sequence number) are what was appended since, wherever. It starts at the head when made. A database that cannot
 * be reached brings nothing (the rows wait for the next poll); a head behind the feed (another database, restored
 * from a backup) loses track.
 */
export function pgAuditFeed(pool: pg.Pool): AuditFeedSource {
  // The last row read; null while unknown (the database could not be asked where the trail ended).
  let cursor: number | null = null;
  // Asked at once, so what is appended from now on is seen.
  const started = headNow(pool).then(
    (head) => void (cursor ??= head.seq),
    () => undefined,
  );
  return {
    async next(): Promise<AuditFeedNews> {
      await started;
      const lines: string[] = [];
      let lostTrack = false;
      try {
        const head = await headNow(pool);
        // Where the trail ended when the feed was made is unknown: what came before now may have gone unseen.
        if (cursor === null) {
          cursor = head.seq;
          return { lines: [], lostTrack: true };
        }
        if (head.seq < cursor) {
          lostTrack = true;
          cursor = 0;
        }
        while (cursor < head.seq) {
          const rows = await rowsAfter(pool, cursor, FEED_PAGE_ROWS);
          if (rows.length === 0) break;
          for (const row of rows) lines.push(row.line);
          cursor = (rows[rows.length - 1] as { seq: number }).seq;
        }
        return { lines, lostTrack };
      } catch {
        // Not reachable now: nothing is lost, the rows not read yet are read at the next poll.
        return { lines, lostTrack };
      }
    },
  };
}

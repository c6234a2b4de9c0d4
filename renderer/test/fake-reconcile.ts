import type { NearMatch, ReconcileSummary } from '../../shared/reconcile';
import { reconcileReference, uidListText, uidMatchesFilter } from '../../shared/reconcile';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { UserRecord } from '../../shared/users';
import type { FakeBehaviours } from './fake-client';

type ReconcileMethods = Pick<FakeBehaviours, 'reconcile.start' | 'reconcile.rows' | 'reconcile.export' | 'reconcile.orphanList'>;

interface FakeSets {
  orphans: string[];
  missing: string[];
  inBoth: string[];
  nearMatches: NearMatch[];
}

/**
 * The reconcile.* methods over memory, close enough to the core for the screen: the text read one uid a line (a first
 * "uid" line skipped), compared exactly after NFC with the fake's users; near matches by spaces at the ends or capitals
 * only. Jobs only start: finish(jobId) settles one as the core would (a test may emit its own events instead).
 */
export function createFakeReconcile(nextJobId: (kind: 'reconcile') => string, users: () => UserRecord[]) {
  const pending = new Map<string, { summary: ReconcileSummary; sets: FakeSets }>();
  const kept = new Map<string, FakeSets & { reference: string }>();
  let sequence = 0;

  const find = (reconcileId: string) => {
    const found = kept.get(reconcileId);
    if (!found) throw new PrivacyDeskError({ code: 'NOT_FOUND', text: msg('reconcile.gone') });
    return found;
  };

  const methods: ReconcileMethods = {
    'reconcile.start': async (input) => {
      const lines = input.text.split('\n').filter((line) => line !== '');
      const application = [...new Set(lines[0] === 'uid' ? lines.slice(1) : lines)];
      const sets = compare(application, users().flatMap((user) => (user.uid === null ? [] : [user.uid])));
      sequence += 1;
      const reconcileId = sequence.toString(16).padStart(32, 'a');
      const startedAt = new Date().toISOString();
      const summary: ReconcileSummary = {
        reconcileId,
        reference: reconcileReference(startedAt, reconcileId),
        startedAt,
        finishedAt: startedAt,
        pages: 1,
        counts: { orphans: sets.orphans.length, missing: sets.missing.length, inBoth: sets.inBoth.length, nearMatches: sets.nearMatches.length, serviceUsers: users().length, withoutUid: users().filter((user) => user.uid === null).length, applicationUids: application.length },
        input: { sourceName: input.sourceName, kind: 'list', duplicates: lines.length - application.length - (lines[0] === 'uid' ? 1 : 0), sameAfterNfc: 0, invalidCount: 0, invalid: [], edgeSpaces: 0 },
      };
      const jobId = nextJobId('reconcile');
      pending.set(jobId, { summary, sets });
      return { jobId };
    },
    'reconcile.rows': async ({ reconcileId, set, filter, offset, limit }) => {
      const found = find(reconcileId);
      if (set === 'nearMatches') {
        const rows = found.nearMatches.filter((near) => uidMatchesFilter(near.service, filter) || uidMatchesFilter(near.application, filter));
        return { set, total: found.nearMatches.length, matching: rows.length, offset, rows: rows.slice(offset, offset + limit) };
      }
      const rows = found[set].filter((uid) => uidMatchesFilter(uid, filter));
      return { set, total: found[set].length, matching: rows.length, offset, rows: rows.slice(offset, offset + limit) };
    },
    'reconcile.export': async ({ reconcileId, format }) => {
      const found = find(reconcileId);
      return format === 'json'
        ? { fileName: `${found.reference}.json`, mimeType: 'application/json', content: JSON.stringify(found) }
        : { fileName: `${found.reference}.csv`, mimeType: 'text/csv', content: `set,service_uid\r\n${found.orphans.map((uid) => `orphan,${uid}`).join('\r\n')}\r\n` };
    },
    'reconcile.orphanList': async ({ reconcileId, filter, uids }) => {
      const found = find(reconcileId);
      const chosen = uids ?? found.orphans.filter((uid) => uidMatchesFilter(uid, filter));
      if (chosen.length === 0) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('reconcile.noOrphans') });
      return { text: uidListText(chosen), count: chosen.length, reference: found.reference, sourceName: `${found.reference} orphans` };
    },
  };

  return {
    methods,
    /** The summary a started job ends with, and the sets kept from then on (undefined: no such job). */
    settle(jobId: string): ReconcileSummary | undefined {
      const job = pending.get(jobId);
      if (!job) return undefined;
      pending.delete(jobId);
      kept.set(job.summary.reconcileId, { ...job.sets, reference: job.summary.reference });
      return job.summary;
    },
  };
}

function compare(application: string[], service: string[]): FakeSets {
  const appKeys = new Map(application.map((uid) => [uid.normalize('NFC'), uid]));
  const serviceKeys = new Set(service.map((uid) => uid.normalize('NFC')));
  const loose = (uid: string) => uid.trim().toLowerCase();
  const orphanCandidates = service.filter((uid) => !appKeys.has(uid.normalize('NFC')));
  const missingCandidates = application.filter((uid) => !serviceKeys.has(uid.normalize('NFC')));
  const nearMatches: NearMatch[] = [];
  for (const orphan of orphanCandidates) {
    for (const app of application) {
      if (loose(app) !== loose(orphan)) continue;
      nearMatches.push({ service: orphan, application: app, differences: orphan.trim() !== app.trim() ? ['case'] : ['edge-spaces'] });
    }
  }
  const heldService = new Set(nearMatches.map((near) => near.service));
  const heldApplication = new Set(nearMatches.map((near) => near.application));
  return {
    orphans: orphanCandidates.filter((uid) => !heldService.has(uid)),
    missing: missingCandidates.filter((uid) => !heldApplication.has(uid)),
    inBoth: service.filter((uid) => appKeys.has(uid.normalize('NFC'))),
    nearMatches,
  };
}

import type { NearMatch } from '../../shared/reconcile';
import { looseUid, nearMatchDifferences } from './near-match';

export interface ReconcileSets {
  /** Service uids (as the service holds them) with no application uid equal after NFC, and no near match. */
  orphans: string[];
  /** Application uids (as the list gives them) with no service uid equal after NFC, and no near match. */
  missing: string[];
  /** Service uids with an application uid equal after NFC. */
  inBoth: string[];
  /** Pairs equal once loosened (core/reconcile/near-match.ts), not exactly: each uid of a pair is in no other set. */
  nearMatches: NearMatch[];
  /** Application uids equal to an earlier one of the list once in NFC (counted once). */
  sameAfterNfc: number;
}

/**
 * The three sets and the near matches. uids compare exactly after NFC (a Set of the application's NFC forms: the
 * only structure as large as the list). Near matches are then looked for among the unmatched uids only: their
 * loose forms are kept in maps, and each side is read once more to find their counterparts, in or out of a set
 * (a service "Alice" beside "alice", which is in both, is held back as a near match of that "alice").
 */
export function compareUidSets(applicationUids: Iterable<string>, serviceUids: readonly string[]): ReconcileSets {
  const application = new Map<string, string>();
  let sameAfterNfc = 0;
  for (const uid of applicationUids) {
    const key = uid.normalize('NFC');
    if (application.has(key)) sameAfterNfc += 1;
    else application.set(key, uid);
  }

  const inBoth: string[] = [];
  const orphanCandidates: string[] = [];
  const onService = new Set<string>();
  for (const uid of serviceUids) {
    const key = uid.normalize('NFC');
    onService.add(key);
    if (application.has(key)) inBoth.push(uid);
    else orphanCandidates.push(uid);
  }
  const missingCandidates: string[] = [];
  for (const [key, uid] of application) if (!onService.has(key)) missingCandidates.push(uid);
  onService.clear();

  const pairs = new Map<string, NearMatch>();
  const held = { service: new Set<string>(), application: new Set<string>() };
  const pair = (service: string, app: string) => {
    const id = `${service}\u0000${app}`;
    if (pairs.has(id)) return;
    pairs.set(id, { service, application: app, differences: nearMatchDifferences(service, app) });
    held.service.add(service);
    held.application.add(app);
  };
  // Unmatched service uids against every application uid.
  const orphansByLoose = groupByLoose(orphanCandidates);
  if (orphansByLoose.size > 0) {
    for (const app of application.values()) for (const service of orphansByLoose.get(looseUid(app)) ?? []) pair(service, app);
  }
  // Unmatched application uids against every service uid.
  const missingByLoose = groupByLoose(missingCandidates);
  if (missingByLoose.size > 0) {
    for (const service of serviceUids) for (const app of missingByLoose.get(looseUid(service)) ?? []) pair(service, app);
  }

  return {
    orphans: held.service.size === 0 ? orphanCandidates : orphanCandidates.filter((uid) => !held.service.has(uid)),
    missing: held.application.size === 0 ? missingCandidates : missingCandidates.filter((uid) => !held.application.has(uid)),
    inBoth,
    nearMatches: [...pairs.values()],
    sameAfterNfc,
  };
}

function groupByLoose(uids: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const uid of uids) {
    const key = looseUid(uid);
    const group = groups.get(key);
    if (group) group.push(uid);
    else groups.set(key, [uid]);
  }
  return groups;
}

import type { AuditEntry } from '../../../shared/audit';

/**
 * What the trail shows per row: the act's outcome. An attempt whose outcome was
 * never written (crash, lost connection, full disk) is 'unknown' too: the
 * operator must check the user. 'attempted' only appears for old entries
 * without an actId, shown as they are.
 */
export type ActOutcome = AuditEntry['outcome'];

export interface AuditAct {
  key: string;
  /** The entry that decides what the row says: the outcome entry when there is one, else the attempt. */
  entry: AuditEntry;
  outcome: ActOutcome;
  /** When the act started (the attempt's time, or the entry's own time when unpaired). */
  at: string;
}

/**
 * One row per act: an attempt and its outcome share an actId and collapse into
 * one row with the final outcome. Entries without an actId stay one row each.
 * Newest act first.
 */
export function groupAuditActs(entries: readonly AuditEntry[]): AuditAct[] {
  const byAct = new Map<string, { attempt?: AuditEntry; outcome?: AuditEntry }>();
  const acts: AuditAct[] = [];
  entries.forEach((entry, index) => {
    if (!entry.actId) {
      acts.push({ key: `entry-${index}-${entry.at}`, entry, outcome: entry.outcome, at: entry.at });
      return;
    }
    const pair = byAct.get(entry.actId) ?? {};
    if (entry.outcome === 'attempted') pair.attempt = entry;
    else if (!pair.outcome || pair.outcome.at <= entry.at) pair.outcome = entry;
    byAct.set(entry.actId, pair);
  });
  for (const [actId, { attempt, outcome }] of byAct) {
    const decisive = outcome ?? attempt!;
    // The attempt carries the reference and the start time; the outcome adds status, request id, error code.
    const entry: AuditEntry = attempt && outcome ? { ...attempt, ...outcome } : decisive;
    acts.push({ key: `act-${actId}`, entry, outcome: outcome ? outcome.outcome : 'unknown', at: attempt?.at ?? decisive.at });
  }
  return acts.sort((a, b) => b.at.localeCompare(a.at));
}

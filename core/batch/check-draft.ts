import type { BatchCheckResult, BatchPreview } from '../../shared/batch';
import type { UserRecord } from '../../shared/users';
import { readDraftItems, recordMissing, recordTrimmable } from './drafts';
import { LIKELY_MISTAKES_SAMPLE, likelyMistakes, trimmedUid } from './likely-mistakes';

/**
 * The check of a draft against the users the walk read: which uids exist, the missing ones (kept with the
 * draft, so a 404 on a retry of one stays "not found"), the trimmable ones (kept too: the operator may choose
 * to send them trimmed) and the lookalikes, with what the list would find when sent trimmed.
 */
export async function checkDraft(dataDir: string, draft: BatchPreview, users: readonly UserRecord[]): Promise<BatchCheckResult> {
  const known = new Set<string>();
  for (const user of users) if (user.uid) known.add(user.uid);
  let existing = 0;
  const missing: string[] = [];
  const mistakes = likelyMistakes(known);
  for await (const item of readDraftItems(dataDir, draft.draftId)) {
    mistakes.listedUid(item.uid);
    if (known.has(item.uid)) {
      existing += 1;
    } else {
      missing.push(item.uid);
      mistakes.absent(item.line, item.uid);
    }
  }
  const { trimmable, lookalikes } = mistakes.result();
  recordMissing(dataDir, draft.draftId, missing);
  recordTrimmable(dataDir, draft.draftId, trimmable.map((item) => item.uid));
  const chosen = new Set(trimmable.map((item) => item.uid));
  const sent = (uid: string) => (chosen.has(uid) ? trimmedUid(uid) : uid);
  const stillMissing = missing.filter((uid) => !chosen.has(uid));
  return {
    users: users.length,
    existing,
    missing: missing.length,
    missingSample: missing.slice(0, LIKELY_MISTAKES_SAMPLE),
    trimmable: {
      count: trimmable.length,
      sample: trimmable.slice(0, LIKELY_MISTAKES_SAMPLE),
      whenTrimmed: {
        existing: existing + trimmable.length,
        missing: stillMissing.length,
        missingSample: stillMissing.slice(0, LIKELY_MISTAKES_SAMPLE),
        firstUids: draft.firstUids.map(sent),
        lastUids: draft.lastUids.map(sent),
      },
    },
    lookalikes,
  };
}

import type { BatchCheckResult, BatchLookalike } from '../../shared/batch';
import { invisibleMark } from '../../shared/invisible-characters';

/** How many of each kind of likely mistake a check names (all are counted). */
export const LIKELY_MISTAKES_SAMPLE = 20;
/** How many uids on the service a lookalike names. */
const MAX_TWINS = 3;

/**
 * The uid without what nobody sees at either end: spaces of every kind (NBSP…), zero-width characters (ZWSP,
 * BOM…), bidi marks, controls. What "use the trimmed uids" sends in place of the pasted uid.
 */
export function trimmedUid(uid: string): string {
  const chars = [...uid];
  let start = 0;
  let end = chars.length;
  while (start < end && invisibleMark(chars[start] as string)) start += 1;
  while (end > start && invisibleMark(chars[end - 1] as string)) end -= 1;
  return chars.slice(start, end).join('');
}

/** The trimmed uid with what nobody sees inside it taken out, and any other kind of space made a plain one. */
function cleanedUid(uid: string): string {
  return [...trimmedUid(uid)].map((char) => (!invisibleMark(char) ? char : /\p{Zs}/u.test(char) ? ' ' : '')).join('');
}

/** Capitals aside, and accents however they are encoded (a precomposed ë or e + a combining diaeresis). */
function foldedUid(uid: string): string {
  return uid.normalize('NFC').toLowerCase();
}

type Found = { kind: 'trimmable'; line: number; uid: string; trimmed: string } | ({ kind: 'lookalike' } & BatchLookalike);

/**
 * The likely mistakes among the uids of a list that are not on the service, for the check: a uid whose
 * trimmed form is on the service (`trimmable`, which the operator may choose to send instead: it only takes
 * off what nobody sees at the ends), or one that differs from a uid on the service only by invisible
 * characters inside or by capitals and accent encoding (`lookalikes`: called out, never replaced — two uids
 * that differ in capitals may be two people, and a uid with an invisible character inside may be exactly the
 * one the service holds for someone else). A uid whose counterpart is in the list too is no mistake: that
 * user is erased anyway.
 */
export function likelyMistakes(known: ReadonlySet<string>) {
  let folded: Map<string, string[]> | undefined;
  const twinsOf = (uid: string): string[] => {
    if (!folded) {
      folded = new Map();
      for (const existing of known) {
        const key = foldedUid(existing);
        const twins = folded.get(key);
        if (twins) twins.push(existing);
        else folded.set(key, [existing]);
      }
    }
    return folded.get(foldedUid(uid)) ?? [];
  };
  const found: Found[] = [];
  const listed = new Set<string>();

  return {
    /** Every item of the list, in order (to know which counterparts are listed too). */
    listedUid(uid: string): void {
      listed.add(uid);
    },
    /** An item the service does not have. */
    absent(line: number, uid: string): void {
      const trimmed = trimmedUid(uid);
      if (trimmed !== uid && trimmed && known.has(trimmed)) {
        found.push({ kind: 'trimmable', line, uid, trimmed });
        return;
      }
      const cleaned = cleanedUid(uid);
      if (cleaned !== uid && cleaned && known.has(cleaned)) {
        found.push({ kind: 'lookalike', line, uid, why: 'invisible', onService: [cleaned] });
        return;
      }
      const twins = cleaned ? twinsOf(cleaned).filter((twin) => twin !== uid) : [];
      if (twins.length > 0) found.push({ kind: 'lookalike', line, uid, why: 'case', onService: twins });
    },
    /** The trimmable uids (all of them) and the lookalikes, once the whole list went by. */
    result(): { trimmable: Array<{ line: number; uid: string; trimmed: string }>; lookalikes: NonNullable<BatchCheckResult['lookalikes']> } {
      const trimmable: Array<{ line: number; uid: string; trimmed: string }> = [];
      const lookalikes: BatchLookalike[] = [];
      let lookalikeCount = 0;
      const offered = new Set<string>();
      for (const item of found) {
        if (item.kind === 'trimmable') {
          // A trimmed form already in the list, or offered for an earlier line, would be erased twice: only the others are offered.
          if (listed.has(item.trimmed) || offered.has(item.trimmed)) continue;
          offered.add(item.trimmed);
          trimmable.push({ line: item.line, uid: item.uid, trimmed: item.trimmed });
          continue;
        }
        const onService = item.onService.filter((twin) => !listed.has(twin));
        if (onService.length === 0) continue;
        lookalikeCount += 1;
        if (lookalikes.length < LIKELY_MISTAKES_SAMPLE) lookalikes.push({ line: item.line, uid: item.uid, why: item.why, onService: onService.slice(0, MAX_TWINS) });
      }
      return { trimmable, lookalikes: { count: lookalikeCount, sample: lookalikes } };
    },
  };
}

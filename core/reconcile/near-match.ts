import type { NearMatchDifference } from '../../shared/reconcile';

/**
 * The steps that make two uids a near match, each undoing one kind of difference nobody should erase a user
 * over. Applied in this order on the NFC form; a uid's loose form is all of them at once.
 */
const STEPS: ReadonlyArray<{ kind: NearMatchDifference; apply: (uid: string) => string }> = [
  { kind: 'edge-spaces', apply: (uid) => uid.replace(/^[\s\p{Cf}]+|[\s\p{Cf}]+$/gu, '') },
  { kind: 'inner-spaces', apply: (uid) => uid.replace(/\s+/gu, ' ') },
  // Zero-width spaces and joiners, bidi marks, a byte order mark, a soft hyphen: drawn as nothing.
  { kind: 'invisible', apply: (uid) => uid.replace(/\p{Cf}/gu, '') },
  // Full-width letters, ligatures, a no-break space…: what NFKC folds into the plain character.
  { kind: 'compatibility', apply: (uid) => uid.normalize('NFKC') },
  // Upper then lower: full case folding's common cases too (ß and SS, final sigma).
  { kind: 'case', apply: (uid) => uid.toUpperCase().toLowerCase() },
];

function applySteps(uid: string, skip?: NearMatchDifference): string {
  let text = uid.normalize('NFC');
  for (const step of STEPS) if (step.kind !== skip) text = step.apply(text);
  // NFKC or case mapping can bring back spaces at the ends or in runs: the loose form is stable.
  if (skip !== 'edge-spaces' && skip !== 'inner-spaces') text = text.replace(/\s+/gu, ' ').trim();
  return text;
}

/** The key near matches share: NFC, then spaces trimmed and collapsed, invisible characters out, NFKC, case folded. */
export function looseUid(uid: string): string {
  return applySteps(uid);
}

/**
 * What sets two near-matched uids apart: each kind without which they would no longer be equal, and each kind
 * whose step changes one of the two uids and not the other on the way to their loose form (a no-break space
 * against a plain one is named even though the compatibility step would also have folded it).
 */
export function nearMatchDifferences(service: string, application: string): NearMatchDifference[] {
  const neededAlone = new Set(STEPS.filter((step) => applySteps(service, step.kind) !== applySteps(application, step.kind)).map((step) => step.kind));
  let left = service.normalize('NFC');
  let right = application.normalize('NFC');
  for (const step of STEPS) {
    const [nextLeft, nextRight] = [step.apply(left), step.apply(right)];
    if (left !== right && nextLeft !== left !== (nextRight !== right)) neededAlone.add(step.kind);
    [left, right] = [nextLeft, nextRight];
  }
  return STEPS.map((step) => step.kind).filter((kind) => neededAlone.has(kind));
}

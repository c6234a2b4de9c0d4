import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { CredentialStore } from './credential-store';

/**
 * The audit trail's anchor: the chain's head kept where a rewrite of the data folder does not reach — the OS
 * keychain entry of the data folder (service 'privacy-desk', account 'audit-anchor:<data folder>'), or, where no
 * keychain works, this process's memory for the session only. A team store can take its place later: it only has
 * to be an AuditAnchorStore.
 *
 * Every write of the trail updates it under the audit lock, before the write lands (core/audit-log.ts): the head
 * the trail has (`head`) and the head the write makes (`next`, with the fingerprint of the bytes it writes), then
 * once more when the write has landed (`head` moves on, no `next`). So a write the anchor still knows under way is
 * one whose writer stopped between the two (a crash, a power cut, a kill): if its torn fragment was set aside and
 * matches the fingerprint, that was a crash (core/audit-anchor-crash.ts); if nothing of it is on disk, it cannot be
 * told from a removal (inconclusive). A landed write that is gone is a removal. `audit verify` and the console's
 * integrity badge compare the trail with it (core/audit-anchor-check.ts): a rollback, a deleted file or a chain
 * recomputed over a rewritten file no longer ends where the anchor says. What an anchored write finds wrong stays
 * in `findings`, so a later act cannot hide it; an operator may acknowledge a finding with a reason, in the trail
 * (core/audit-anchor-acknowledge.ts).
 */

/** A head of the chain: its last entry's number and hash (seq 0, hash null: no chained entry). */
export interface ChainHead {
  seq: number;
  headHash: string | null;
}

/** The trail where it stood: a head and the chain it belongs to. */
export interface TrailHead extends ChainHead {
  chainId: string | null;
}

export const ANCHOR_PROBLEM_KINDS = ['rolled-back', 'unlanded', 'rewritten', 'unanchored'] as const;
export type AnchorProblemKind = (typeof ANCHOR_PROBLEM_KINDS)[number];

/**
 * What a write puts on the disk, so a fragment of it can be recognised after a crash: its length and the first 16
 * hexadecimal characters of the SHA-256 of its first 32, 64, 128… bytes (each shorter than the whole).
 */
export interface WriteFingerprint {
  bytes: number;
  marks: string[];
}

/** A crash proven by its fragment: the file the torn part was set aside to, its bytes, and the write's entries that reached the trail whole. */
export interface CrashEvidence {
  fragment: string;
  bytes: number;
  landed: number;
}

/** What did not match: the trail as found against what the anchor held. */
export interface AnchorProblem {
  kind: AnchorProblemKind;
  /** The head the anchor vouched for, and the write it knew under way. */
  anchored: TrailHead & { next?: TrailHead | undefined; at: string };
  /** The trail's head as found. */
  found: TrailHead;
  /** unanchored: the entries no anchored write vouches for. */
  from?: number | undefined;
  to?: number | undefined;
  /** unlanded: the write's fragment, set aside after the crash that cut it short (then it is no break). */
  crash?: CrashEvidence | undefined;
  /** unlanded, inconclusive: a fragment that may be the write's start but is too short to tell. */
  short?: { fragment: string; bytes: number } | undefined;
}

/** A problem an anchored write met on its way, kept for good: the anchor then followed the trail. */
export interface AnchorFinding extends AnchorProblem {
  /** When it was found (ISO 8601). */
  foundAt: string;
}

export interface AuditAnchorRecord {
  format: 1;
  /** The head the trail has reached. */
  head: TrailHead;
  /** A write under way: the head the trail has once it lands, and what it writes (absent on records kept before fingerprints). */
  next?: (TrailHead & { write?: WriteFingerprint | undefined }) | undefined;
  /** Set when the anchor was first kept for a trail that already had entries: those up to `seq` were adopted as found. */
  adopted?: { at: string; seq: number } | undefined;
  findings: AnchorFinding[];
  /** When this record was written (ISO 8601). */
  at: string;
}

/** Where an anchor is kept, once known, and why not in the keychain when it could not be. */
export interface AnchorPlace {
  kind: 'keychain' | 'session';
  problem?: string;
}

/** The small interface any anchor keeper implements (the keychain's, this session's, a team store later). */
export interface AuditAnchorStore {
  where(): Promise<AnchorPlace>;
  /** Null when nothing is kept yet; throws when the record cannot be read. */
  read(): Promise<AuditAnchorRecord | null>;
  write(record: AuditAnchorRecord): Promise<void>;
}

/**
 * How many findings a record keeps: the oldest (the later ones usually follow from them), acknowledged ones given up
 * first when there is no room, and the newest always (core/audit-anchor-check.ts keepFinding).
 */
export const MAX_FINDINGS = 20;

const hash = z.string().regex(/^[0-9a-f]{64}$/);
const trailHeadSchema = z.object({ seq: z.number().int().min(0), headHash: hash.nullable(), chainId: z.string().nullable() });
const fingerprintSchema = z.object({ bytes: z.number().int().min(1), marks: z.array(z.string().regex(/^[0-9a-f]{16}$/)).max(64) });
const problemSchema = z.object({
  kind: z.enum(ANCHOR_PROBLEM_KINDS),
  anchored: trailHeadSchema.extend({ next: trailHeadSchema.optional(), at: z.string() }),
  found: trailHeadSchema,
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  crash: z.object({ fragment: z.string().max(4096), bytes: z.number().int().min(1), landed: z.number().int().min(0) }).optional(),
  short: z.object({ fragment: z.string().max(4096), bytes: z.number().int().min(1) }).optional(),
});
const recordSchema = z.object({
  format: z.literal(1),
  head: trailHeadSchema,
  next: trailHeadSchema.extend({ write: fingerprintSchema.optional() }).optional(),
  adopted: z.object({ at: z.string(), seq: z.number().int().min(0) }).optional(),
  findings: z.array(problemSchema.extend({ foundAt: z.string() })).max(MAX_FINDINGS),
  at: z.string(),
});

/** The keychain account of a data folder: its real path, so two spellings of one folder share one anchor. */
export function anchorAccount(dataDir: string): string {
  let path = resolve(dataDir);
  try {
    path = realpathSync(path);
  } catch {
    // A folder not created yet keeps its resolved path.
  }
  return `audit-anchor:${path}`;
}

/**
 * The anchor kept through the credential store (keytar: service 'privacy-desk'; the session store: memory).
 * `open` may be the store itself or a function that opens it on first use, so a command that never writes or
 * verifies the trail never loads the keychain.
 */
export function anchorInCredentialStore(open: CredentialStore | (() => Promise<{ store: CredentialStore; problem?: string | undefined }>), dataDir: string): AuditAnchorStore {
  const account = anchorAccount(dataDir);
  let opened: Promise<{ store: CredentialStore; problem?: string | undefined }> | undefined;
  const store = (): Promise<{ store: CredentialStore; problem?: string | undefined }> => (opened ??= typeof open === 'function' ? open() : Promise.resolve({ store: open }));
  return {
    async where() {
      const { store: used, problem } = await store();
      return { kind: used.kind, ...(problem ? { problem } : {}) };
    },
    async read() {
      const { store: used } = await store();
      const text = await used.getRecord(account);
      if (text === null) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error('the keychain’s anchor record is not JSON');
      }
      const checked = recordSchema.safeParse(parsed);
      if (!checked.success) throw new Error('the keychain’s anchor record has an unknown shape');
      return checked.data as AuditAnchorRecord;
    },
    async write(record) {
      const { store: used } = await store();
      await used.setRecord(account, JSON.stringify(record));
    },
  };
}

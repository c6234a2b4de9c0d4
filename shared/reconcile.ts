import { z } from 'zod';
import { BATCH_SEPARATORS, MAX_BATCH_TEXT_LENGTH, separatorFitsKind } from './batch';
import { profileIdSchema } from './profile';

/**
 * Reconciliation with the client application: its current uid list against every user of the service.
 *   orphans     — on the service, not in the application: candidates for erasure;
 *   missing     — in the application, not on the service;
 *   inBoth      — in both;
 *   nearMatches — a service uid and an application uid that are not equal, yet are once spaces at the ends,
 *                 runs of spaces, invisible characters, compatibility forms (NFKC) and capitals are set aside.
 * uids compare exactly: code point for code point after Unicode NFC (an "é" typed as e + accent equals the
 * precomposed one); nothing is trimmed and capitals count. A uid that only near-matches is listed under near
 * matches with its counterpart and nowhere else: it is never an orphan, so never offered for erasure by default.
 */

export const RECONCILE_SETS = ['orphans', 'missing', 'inBoth', 'nearMatches'] as const;
export type ReconcileSetName = (typeof RECONCILE_SETS)[number];

/** What sets a near match apart from an exact one, in the order they are looked for. */
export const NEAR_MATCH_DIFFERENCES = ['edge-spaces', 'inner-spaces', 'invisible', 'compatibility', 'case'] as const;
export type NearMatchDifference = (typeof NEAR_MATCH_DIFFERENCES)[number];

export interface NearMatch {
  /** The uid as the service holds it. */
  service: string;
  /** The uid as the application's list gives it. */
  application: string;
  differences: NearMatchDifference[];
}

export const reconcileIdSchema = z.string().regex(/^[0-9a-f]{32}$/, 'not a reconciliation id');

/** What the window sends: the application's list as batch.preview takes it, and the profile whose users are walked. */
export const reconcileStartInputSchema = z
  .object({
    profileId: profileIdSchema,
    text: z.string().max(MAX_BATCH_TEXT_LENGTH),
    kind: z.enum(['auto', 'list', 'csv', 'tsv']).default('auto'),
    separator: z.enum(BATCH_SEPARATORS).optional(),
    uidColumn: z.union([z.string().min(1).max(200), z.number().int().min(0).max(10_000)]).optional(),
    hasHeader: z.boolean().optional(),
    sourceName: z.string().min(1).max(300).default('pasted list'),
  })
  .refine(({ kind, separator }) => separatorFitsKind(kind, separator), { message: 'a separator goes with kind auto, or with csv (comma, semicolon) or tsv (tab)', path: ['separator'] });

/** The most rows one reconcile.rows answer carries. */
export const MAX_RECONCILE_ROWS = 500;

export const reconcileRowsInputSchema = z.object({
  reconcileId: reconcileIdSchema,
  set: z.enum(RECONCILE_SETS),
  /** Rows whose uid (either side of a near match) holds this text, capitals aside; '' for all. */
  filter: z.string().max(1024).default(''),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(MAX_RECONCILE_ROWS).default(100),
});

export const reconcileExportInputSchema = z.object({
  reconcileId: reconcileIdSchema,
  format: z.enum(['csv', 'json']),
});

/** The orphans as a list a batch reads (reconcile.orphanList): the filtered ones, or those picked. */
export const reconcileOrphanListInputSchema = z.object({
  reconcileId: reconcileIdSchema,
  filter: z.string().max(1024).default(''),
  /** Only these orphans (each must be one); omitted: every orphan the filter keeps. */
  uids: z.array(z.string().max(1024)).max(100_000).optional(),
});

export interface ReconcileCounts {
  orphans: number;
  missing: number;
  inBoth: number;
  nearMatches: number;
  /** Users the walk met, anonymised ones (without a uid) included. */
  serviceUsers: number;
  /** Users met without a uid (anonymised): in no set. */
  withoutUid: number;
  /** Distinct valid uids read from the application's list. */
  applicationUids: number;
}

const invalidLineSchema = z.object({ line: z.number().int(), reason: z.string(), excerpt: z.string() });

/** How many invalid lines of the application's list a summary names (all are counted). */
export const RECONCILE_INVALID_SHOWN = 20;

export const reconcileSummarySchema = z.object({
  reconcileId: reconcileIdSchema,
  /** The reference a batch of its orphans carries, e.g. reconcile-20261124-3f9a2c (valid per shared/reference.ts). */
  reference: z.string(),
  /** When the walk of the service's users started (ISO 8601). */
  startedAt: z.string(),
  finishedAt: z.string(),
  pages: z.number().int().min(0),
  counts: z.object({
    orphans: z.number().int().min(0),
    missing: z.number().int().min(0),
    inBoth: z.number().int().min(0),
    nearMatches: z.number().int().min(0),
    serviceUsers: z.number().int().min(0),
    withoutUid: z.number().int().min(0),
    applicationUids: z.number().int().min(0),
  }),
  input: z.object({
    sourceName: z.string(),
    kind: z.enum(['list', 'csv', 'tsv']),
    separator: z.enum(BATCH_SEPARATORS).optional(),
    columns: z.array(z.string()).optional(),
    uidColumn: z.object({ index: z.number().int(), name: z.string().optional() }).optional(),
    duplicates: z.number().int().min(0),
    /** Application uids equal to another of the list once in NFC: counted once. */
    sameAfterNfc: z.number().int().min(0),
    invalidCount: z.number().int().min(0),
    invalid: z.array(invalidLineSchema).max(RECONCILE_INVALID_SHOWN),
    edgeSpaces: z.number().int().min(0),
  }),
});
export type ReconcileSummary = z.output<typeof reconcileSummarySchema>;

export type ReconcileRows =
  | { set: 'orphans' | 'missing' | 'inBoth'; total: number; matching: number; offset: number; rows: string[] }
  | { set: 'nearMatches'; total: number; matching: number; offset: number; rows: NearMatch[] };

export interface ReconcileExportFile {
  fileName: string;
  mimeType: 'text/csv' | 'application/json';
  content: string;
}

/** The orphans to hand to a batch: the list text (a "uid" header, then one uid a line, each line whole), their count and the reference. */
export interface ReconcileOrphanList {
  text: string;
  count: number;
  reference: string;
  sourceName: string;
}

/** "reconcile-<date>-<short id>": the date of the walk (UTC, YYYYMMDD) and the reconciliation id's first six characters. */
export function reconcileReference(startedAt: string, reconcileId: string): string {
  return `reconcile-${startedAt.slice(0, 10).replaceAll('-', '')}-${reconcileId.slice(0, 6)}`;
}

/**
 * A list of uids as a batch reads it whole, line for line (read it as a list: separator "none"): a first line "uid"
 * that a list's header rule skips, so a uid that happens to read "uid" or "User ID" is still sent. A uid never holds
 * a line break (shared/uid.ts refuses control characters), so every line is one uid exactly.
 */
export function uidListText(uids: readonly string[]): string {
  return uids.length === 0 ? 'uid\n' : `uid\n${uids.join('\n')}\n`;
}

/** Whether a uid passes a table's filter: the filter's text anywhere in it, capitals aside. */
export function uidMatchesFilter(uid: string, filter: string): boolean {
  if (filter === '') return true;
  return uid.toLowerCase().includes(filter.toLowerCase());
}

import type { ErasureAction } from './users';
import type { ErrorCode, Outcome } from './errors';
import type { NegativeCase } from './logout';

/**
 * The audit trail: one JSON line per entry in <dataDir>/audit.jsonl, appended
 * under a cross-process lock, each entry chained to its predecessor by SHA-256
 * (core/audit-chain.ts). An act (one operator decision, one actId) writes:
 *   'attempted' before each request, then that request's outcome;
 *   for "log out, then erase": attempted+outcome for the logout step, then for the erasure step;
 *   after a done erasure: a 'verification' entry saying whether the uid still resolves.
 * No secret, no token, no personal data beyond the uid and the reference.
 */
export type AuditStage = 'attempted' | Outcome | 'verification';

/** Which request of an act an entry is about (an act may log out first, then erase). */
export type AuditOperation = ErasureAction | 'logout';

/** After a done erasure: does the old uid still resolve? */
export const VERIFICATION_RESULTS = ['verified', 'not-verified', 'could-not-check'] as const;
export type VerificationResult = (typeof VERIFICATION_RESULTS)[number];

/** Where an act was started from. */
export type AuditVia = 'app' | 'cli' | 'batch';

/** What the gate writes; the audit log adds the chain fields (seq, prevHash, chainId, format). */
export interface AuditRecord {
  /** ISO 8601 with the local offset, e.g. 2026-11-22T18:02:11.123+01:00. */
  at: string;
  /** Random UUID shared by every entry of one act. */
  actId: string;
  action: AuditOperation;
  /** 'attempted' before the request; the request's outcome after it; 'verification' after a done erasure. */
  outcome: AuditStage;
  uid: string;
  /** Ticket or request number the operator gave. */
  reference?: string;
  profileId: string;
  profileName: string;
  baseUrl: string;
  /** The OS user who acted. */
  operator: string;
  appVersion: string;
  via: AuditVia;
  /** Set when via is 'batch'. */
  jobId?: string;
  /** A deliberate test (the logout tester's negative cases): refused is the expected result. */
  test?: { case: NegativeCase };
  status?: number;
  requestId?: string;
  errorCode?: ErrorCode;
  /** On 'verification' entries. */
  verification?: VerificationResult;
}

/**
 * One line of the trail as read: the record plus its place in the hash chain.
 * actId, operator and appVersion are missing only on lines written before they existed.
 */
export interface AuditEntry extends Omit<AuditRecord, 'actId' | 'operator' | 'appVersion'> {
  actId?: string;
  operator?: string;
  appVersion?: string;
  /** Format of the line; absent on lines written before the chain (read as legacy, unchained). */
  format?: 2;
  /** Position in the chain, from 1. */
  seq?: number;
  /** SHA-256 (hex) of the previous entry's canonical serialisation; for the first entry, of the chain id. */
  prevHash?: string;
  /** On the first entry only: the random id that anchors the chain. */
  chainId?: string;
}

/** A line that could not be read as an entry: shown as corrupt, never hiding the others. */
export interface CorruptAuditLine {
  line: number;
  /** What is wrong, in words (not JSON, missing field, unknown outcome…). */
  problem: string;
  /** The start of the line as stored, cut short; display it as text only. */
  excerpt: string;
}

/** What `verify` answers. */
export type ChainVerdict =
  | { ok: true; entries: number; headHash: string | null; chainId: string | null }
  | {
      ok: false;
      entries: number;
      /** The first break, located. */
      kind: 'edited' | 'removed' | 'swapped' | 'inserted' | 'torn-tail' | 'corrupt' | 'unchained';
      /** 1-based line number in audit.jsonl where the break shows. */
      line: number;
      /** Plain words: what was found and where. */
      message: string;
      headHash: string | null;
    };

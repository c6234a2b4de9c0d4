import { z } from 'zod';
import type { VerificationResult } from './audit';
import type { ErrorCode, Outcome } from './errors';

export const PER_PAGE_CHOICES = [10, 25, 50, 100] as const;
export const MAX_PER_PAGE = 100;

export const listUsersInputSchema = z.object({
  page: z.number().int().min(1).default(1),
  perPage: z.number().int().min(1).max(MAX_PER_PAGE).default(10),
});
export type ListUsersInput = z.input<typeof listUsersInputSchema>;

/**
 * One user as Privacy Desk shows it. The service's record varies (docs/SERVICE-API.md#user-record):
 * the named fields are normalised for the table; `fields` keeps every field
 * exactly as the service sent it, for the detail panel and `--json`.
 */
export interface UserRecord {
  uid: string | null;
  fullName: string | null;
  email: string | null;
  createdAt: string | null;
  messagesCount: number | null;
  votesCount: number | null;
  fields: Record<string, unknown>;
}

export interface UserPage {
  users: UserRecord[];
  page: number;
  perPage: number;
  total?: number;
  totalPages?: number;
  hasNext: boolean;
  /** When the request left (ISO 8601, the core's clock): what the page says was true then (users.erasedSince tells what changed). */
  readAt?: string;
}

export const ERASURE_ACTIONS = ['anonymize', 'delete'] as const;
export type ErasureAction = (typeof ERASURE_ACTIONS)[number];

export interface ErasureResult {
  action: ErasureAction;
  uid: string;
  /** A result is only ever a readable 2xx; every other ending is a PrivacyDeskError with its own outcome. */
  outcome: 'done';
  status: number;
  requestId?: string;
  /** ISO 8601 time the service answered. */
  completedAt: string;
  /** Set when the operator chose "end the user's sessions first": how the logout step ended. */
  logout?: ErasureLogoutStep;
  /** After the done erasure: does the old uid still resolve? (shared/audit.ts VERIFICATION_RESULTS) */
  verification?: VerificationResult;
  /** How the verification request was answered (404 when verified). */
  verificationStatus?: number;
}

/** The logout step of "log out, then erase". A failed logout does not stop the confirmed erasure; it is shown here. */
export interface ErasureLogoutStep {
  outcome: Outcome;
  status?: number;
  errorCode?: ErrorCode;
  requestId?: string;
}

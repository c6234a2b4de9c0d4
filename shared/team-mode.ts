import { z } from 'zod';
import { errorInfoSchema } from './errors';
import type { MessageText } from './message-text';

/**
 * Team mode as the console and `privacy-desk team status --json` show it: local (the data folder's files), or the
 * team database named by its address (never a password), whether it can be reached now and, when it can, with which
 * role, at which schema step, and how much it holds.
 */
export const teamStatusSchema = z.object({
  mode: z.enum(['local', 'team']),
  /** postgres://USER@HOST:PORT/DB */
  where: z.string().optional(),
  connectedAt: z.string().optional(),
  connectedBy: z.object({ operator: z.string(), desktop: z.string() }).optional(),
  importedAt: z.string().optional(),
  /** Where the password is kept: the OS keychain, only the environment (PRIVACY_DESK_DATABASE_PASSWORD), or nowhere. */
  password: z.enum(['keychain', 'session', 'environment', 'missing']).optional(),
  reachable: z.boolean().optional(),
  /** Why it cannot be reached (unreachable, refused, no password…). */
  problem: errorInfoSchema.optional(),
  role: z.string().optional(),
  desktop: z.string().optional(),
  /** The last schema step the database has run, and how many. */
  schema: z.object({ last: z.string(), steps: z.number() }).optional(),
  counts: z.object({ auditEntries: z.number(), requests: z.number(), jobs: z.number() }).optional(),
});
export type TeamStatus = z.infer<typeof teamStatusSchema>;

/** The console's connect form: the address and the password (never sent back, never kept outside the keychain). */
export const teamConnectInputSchema = z.object({
  databaseUrl: z.string().min(1).max(1000),
  password: z.string().min(1).max(1000),
});

/** The word the operator types to confirm `team import` (the CLI's --yes IMPORT, the console's dialog). */
export const TEAM_IMPORT_PHRASE = 'IMPORT';

/** The console's import: the word as typed (checked by the handler, so a mismatch is said in words, nothing imported). */
export const teamImportInputSchema = z.object({ confirmation: z.string().max(100) });

/**
 * What `team import` would move, read from the data folder before anything is written (the database is not asked):
 * the local trail's entries, the batch jobs (damaged ones are left out) and the register's requests.
 */
export interface TeamImportPreview {
  /** The team database it would go into. */
  where: string;
  /** Set when this folder's data was imported already: a second import is refused. */
  importedAt?: string;
  auditEntries: number;
  jobs: number;
  /** Jobs whose files cannot be read: they would be left out. */
  damagedJobs: number;
  requests: number;
  registerEvents: number;
}

/** What `team import` moved (core/team/team-open.ts TeamImport), as the console shows it. */
export interface TeamImportResult {
  where: string;
  auditEntries: number;
  firstSeq: number | null;
  localHeadHash: string | null;
  jobs: number;
  /** The trail was moved by an earlier import cut short: what says so (this one moved the rest). */
  trailAlreadyThere?: MessageText;
  /** Jobs left out and why (`text` in words when the core has them; `why` in English otherwise). */
  jobsNotImported: Array<{ jobId: string; why: string; text?: MessageText }>;
  requests: number;
  registerEvents: number;
  requestersUnreadable: number;
}

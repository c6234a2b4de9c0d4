import { z } from 'zod';
import { errorInfoSchema } from './errors';

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

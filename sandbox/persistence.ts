import { existsSync, readFileSync, renameSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { z } from 'zod';
import type { StateSnapshot } from './state';

const nullableString = z.string().nullable();
const userSchema = z.object({
  record: z.object({
    id: z.number().int(),
    uid: nullableString,
    hash_id: z.string(),
    slug: z.string(),
    full_name: nullableString,
    email: nullableString,
    image_url: nullableString,
    description: nullableString,
    level: z.object({ id: z.number().int(), name: z.string(), icon_url: z.string() }),
    score: z.number(),
    points: z.number(),
    created_at: z.string(),
    last_activity: nullableString,
    messages_count: z.number().int(),
    votes_count: z.number().int(),
    age: z.number().int().nullable(),
    city: nullableString,
    occupation: nullableString,
    interests: nullableString,
  }),
  state: z.enum(['active', 'anonymized']),
  messageIds: z.array(z.number().int()),
  voteIds: z.array(z.number().int()),
  sessions: z.array(z.object({ id: z.string(), createdAt: z.string() })),
});

const snapshotSchema = z.object({
  version: z.literal(1),
  users: z.array(userSchema),
  tombstones: z.array(z.tuple([z.string(), z.object({ state: z.enum(['anonymized', 'deleted']), userId: z.number().int() })])),
  tokens: z.array(z.object({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    scopes: z.array(z.string()),
    createdAtMs: z.number(),
    expiresAtMs: z.number(),
  })),
  nextUserId: z.number().int().positive(),
  nextContributionId: z.number().int().positive(),
});

/**
 * Reads the saved state. Undefined when the file does not exist yet; a file
 * that exists but cannot be read as sandbox state is an error, never silently
 * replaced (it may be someone's hand-made test data).
 */
export function loadSnapshot(file: string): StateSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `The sandbox data file ${file} is not valid JSON (${(error as Error).message}). ` +
        'Fix it, or delete it to start again from the seeded users.',
      { cause: error },
    );
  }
  const result = snapshotSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(top level)'}: ${issue.message}` : 'unknown problem';
    throw new Error(
      `The sandbox data file ${file} is not sandbox state (${where}). ` +
        'Fix it, or delete it to start again from the seeded users.',
    );
  }
  return result.data;
}

/** Writes the whole state to a temporary file, then renames it over the old one: a crash never leaves half a file. */
export function saveSnapshot(file: string, snapshot: StateSnapshot): void {
  const directory = dirname(file);
  mkdirSync(directory, { recursive: true });
  const temporary = join(directory, `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, JSON.stringify(snapshot), { encoding: 'utf8', mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw error;
  }
}

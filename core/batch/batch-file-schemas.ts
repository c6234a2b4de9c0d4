/**
 * What a batch file read back from disk must look like. Privacy Desk writes these files itself, but they
 * sit in the data folder where anything can change them, and the plan decides what is sent: a plan whose
 * action is 'anonymise' (not one of ours) once reached the gate. So every file is parsed, not cast, and a
 * bad one is a typed error naming the file, raised before anything is sent.
 *
 * Objects are loose (unknown keys pass through untouched), so a field added by a newer version is kept;
 * the checks below make a field added to an interface without its schema a compile error.
 */
import { z } from 'zod';
import { PrivacyDeskError } from '../../shared/errors';
import { ERASURE_ACTIONS } from '../../shared/users';
import type { BatchPreview } from '../../shared/batch';
import { FINAL_OUTCOMES, JOB_ID_PATTERN, RETRY_OUTCOMES, type BatchItem, type JournalEvent, type StoredPlan } from './job-files';
import { msg } from '../../shared/messages';
import { messageTextSchema, type MessageText } from '../../shared/message-text';

const count = z.number().int().nonnegative();

/** plan.json */
export const storedPlanSchema = z.looseObject({
  jobId: z.string().regex(JOB_ID_PATTERN, 'not a batch job id'),
  createdAt: z.iso.datetime({ offset: true }),
  action: z.enum(ERASURE_ACTIONS),
  profileId: z.string().min(1),
  profileName: z.string(),
  baseUrl: z.string().min(1),
  reference: z.string().optional(),
  logoutFirst: z.boolean(),
  total: count,
  trimmedByChoice: count.optional(),
  source: z.string(),
});

/** One line of items.jsonl, and of a draft's items. */
export const batchItemSchema = z.looseObject({
  line: z.number().int().positive(),
  uid: z.string().min(1),
  reference: z.string().optional(),
  missingAtCheck: z.literal(true).optional(),
  pastedUid: z.string().min(1).optional(),
});

const eventBase = { seq: z.number().int().positive(), at: z.iso.datetime({ offset: true }), item: count };

/** One line of journal.jsonl: a start, an outcome with one of the item outcomes, or a failed item sent again. */
export const journalEventSchema = z.discriminatedUnion('kind', [
  z.looseObject({ ...eventBase, kind: z.literal('started') }),
  z.looseObject({ ...eventBase, kind: z.literal('retry'), recheck: z.boolean() }),
  z.looseObject({
    ...eventBase,
    kind: z.literal('outcome'),
    outcome: z.enum([...RETRY_OUTCOMES, ...FINAL_OUTCOMES]),
    status: z.number().int().optional(),
    requestId: z.string().optional(),
    reason: z.string().optional(),
    reasonText: messageTextSchema.optional(),
  }),
]);

/** A draft's preview (`<draftId>.json`): the fields start and check rely on; the rest is shown, not acted on. */
export const draftPreviewSchema = z.looseObject({
  draftId: z.string().regex(/^[0-9a-f]{32}$/, 'not a batch draft id'),
  kind: z.enum(['list', 'csv', 'tsv']),
  items: count,
  withReference: count,
  invalidCount: count,
  duplicates: count,
  sourceName: z.string(),
  firstUids: z.array(z.string()),
  lastUids: z.array(z.string()),
  invalid: z.array(z.looseObject({ line: z.number().int().positive(), problem: z.looseObject({ code: z.string() }), reason: z.string(), excerpt: z.string() })),
  edgeSpaces: z.looseObject({ count, lines: z.array(z.number().int().positive()) }),
});

/** One line of a draft's `.missing.jsonl`: a uid the check did not find. */
export const missingUidSchema = z.string();

// Compile-time: every field of the interfaces has a schema (a new field needs one), and what a schema accepts fits the interface.
type Checked<Unchecked extends never> = Unchecked;
type Fits<Output, Interface> = Output extends Interface ? true : never;
export type _BatchFileSchemasAgree = [
  Checked<Exclude<keyof StoredPlan, keyof typeof storedPlanSchema.shape>>,
  Checked<Exclude<keyof BatchItem, keyof typeof batchItemSchema.shape>>,
  Checked<Exclude<keyof JournalEvent, keyof (typeof journalEventSchema.options)[1]['shape'] | keyof (typeof journalEventSchema.options)[2]['shape']>>,
  Fits<z.output<typeof storedPlanSchema>, StoredPlan>,
  Fits<z.output<typeof batchItemSchema>, BatchItem>,
  Fits<z.output<typeof journalEventSchema>, JournalEvent>,
  Fits<z.output<typeof draftPreviewSchema>, Pick<BatchPreview, 'draftId' | 'kind' | 'items' | 'sourceName'>>,
];

/** The parser's (zod's) words about what is wrong, briefly: where and why for the first few problems (never the whole value). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** What is wrong with a batch file: in our words (a message the window words in its language), and the parser's own words apart. */
export interface BatchFileDamage {
  path: string;
  /** 1-based, for the .jsonl files. */
  line?: number;
  why: MessageText;
  /** The parser's (zod's) or the system's words: quoted apart, as a technical detail, never translated. */
  detail?: string;
  /** It could not be read at all (the system said why, in `detail`): maybe intact, but out of reach. */
  unreadable?: true;
}

/**
 * A batch file that is not what Privacy Desk wrote, or cannot be read: the error every reader raises before
 * the run sends anything (outcome not-sent), with what was found (`damage`) for the job list to show.
 */
export class BatchFileError extends PrivacyDeskError {
  constructor(
    readonly damage: BatchFileDamage,
    text: MessageText,
    options?: { cause?: unknown },
  ) {
    super({ code: 'INTERNAL', outcome: 'not-sent', text, ...(damage.detail !== undefined ? { quote: { from: 'system', text: damage.detail } } : {}) }, options);
  }
}

export function damagedBatchFile(damage: BatchFileDamage): BatchFileError {
  const { path, line, why } = damage;
  return new BatchFileError(damage, line === undefined ? msg('batch.fileDamaged', { path, why }) : msg('batch.fileLineDamaged', { line, path, why }));
}

/** Parses one JSON text against a schema, or throws damagedBatchFile. */
export function parseBatchFile<T>(schema: z.ZodType<T>, text: string, path: string, line?: number): T {
  const at = line === undefined ? { path } : { path, line };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damagedBatchFile({ ...at, why: msg('batch.file.notJson') });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw damagedBatchFile({ ...at, why: msg('batch.file.notAsWritten'), detail: describeIssues(parsed.error) });
  return parsed.data;
}

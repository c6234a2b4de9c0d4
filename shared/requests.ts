import { z } from 'zod';

/**
 * The request register: every erasure request a data protection officer answers, from receipt to answer, with its
 * legal clock. The core keeps it (core/requests/request-store.ts) and hands every front the same views: the console
 * and the CLI compute nothing themselves — deadline, days left and whether a request is overdue come with the view.
 */

/** REQ-2026-0042: the year it was received (as written in its receivedAt) and its number in that year in this data folder. */
export const REQUEST_ID = /^REQ-(\d{4})-(\d{4,})$/;
export const requestIdSchema = z.string().regex(REQUEST_ID);
export type RequestId = string;

export const REQUEST_CHANNELS = ['e-mail', 'form', 'letter', 'phone', 'other'] as const;
export type RequestChannel = (typeof REQUEST_CHANNELS)[number];

export const REQUEST_ACTIONS = ['anonymize', 'delete', 'logout'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

/** received → waiting-for-identity (the clock paused) → in-progress → answered | refused. */
export const REQUEST_STATUSES = ['received', 'waiting-for-identity', 'in-progress', 'answered', 'refused'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const CLOSED_STATUSES: readonly RequestStatus[] = ['answered', 'refused'];

/** An ISO 8601 instant with its offset (2026-03-03T09:12:00+01:00 or …Z): the day it falls on depends on where it was. */
export const isoInstantSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/).refine((value) => !Number.isNaN(Date.parse(value)), 'not a real date and time');

/** Free text kept in the register: one paragraph at most, no control character but line breaks. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const registerText = (max: number) => z.string().trim().min(1).max(max).refine((value) => !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(value), 'holds a control character');

export const requestSubjectSchema = z.object({
  uid: z.string().min(1).max(500),
  /** The profile (service) the uid belongs to; absent when not said yet. */
  profileId: z.string().min(1).max(200).optional(),
});
export type RequestSubject = z.infer<typeof requestSubjectSchema>;

/** The requester's name and contact: personal data, encrypted at rest and purged after the request is closed. */
export const requesterSchema = z.object({ name: registerText(300).optional(), contact: registerText(500).optional() });
export type Requester = z.infer<typeof requesterSchema>;

export const newRequestSchema = z.object({
  receivedAt: isoInstantSchema,
  channel: z.enum(REQUEST_CHANNELS).default('e-mail'),
  actions: z.array(z.enum(REQUEST_ACTIONS)).min(1).max(3),
  subjects: z.array(requestSubjectSchema).min(1).max(1000),
  requester: requesterSchema.optional(),
  notes: registerText(4000).optional(),
});
export type NewRequest = z.input<typeof newRequestSchema>;

/** What `update` may change; lists replace the whole list. */
export const requestFieldsSchema = z.object({
  receivedAt: isoInstantSchema.optional(),
  channel: z.enum(REQUEST_CHANNELS).optional(),
  actions: z.array(z.enum(REQUEST_ACTIONS)).min(1).max(3).optional(),
  subjects: z.array(requestSubjectSchema).min(1).max(1000).optional(),
  requester: requesterSchema.optional(),
  notes: registerText(4000).optional(),
  /** received → in-progress (the only status update: the others have their own change). */
  status: z.literal('in-progress').optional(),
});
export type RequestFields = z.input<typeof requestFieldsSchema>;

/** One change a person makes to a request: what `apply` takes. Dates default to now. */
export const requestChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('update'), fields: requestFieldsSchema }),
  z.object({ kind: z.literal('pause'), at: isoInstantSchema.optional() }),
  z.object({ kind: z.literal('resume'), at: isoInstantSchema.optional() }),
  z.object({ kind: z.literal('extend'), reason: registerText(1000), personToldAt: isoInstantSchema, decidedAt: isoInstantSchema.optional() }),
  z.object({
    kind: z.literal('link'),
    actIds: z.array(z.string().min(1).max(100)).max(100_000).default([]),
    batchJobIds: z.array(z.string().min(1).max(100)).max(1000).default([]),
  }),
  z.object({ kind: z.literal('refuse'), ground: registerText(2000) }),
  z.object({ kind: z.literal('close') }),
  z.object({ kind: z.literal('purge') }),
]);
export type RequestChangeInput = z.input<typeof requestChangeSchema>;
/** 'pack': an answer pack was made for the closed request (core/requests/answer-pack.ts); only the store writes it. */
export type RequestChangeKind = RequestChangeInput['kind'] | 'create' | 'pack';

/** A period the clock was stopped for identity checks: `to` absent while it still is. */
export interface RequestPause {
  from: string;
  to?: string;
}

export interface RequestExtension {
  reason: string;
  decidedAt: string;
  personToldAt: string;
}

/** One change as the history shows it: who, when, what (personal data never in it: "requester changed", not the name). */
export interface RequestHistoryEntry {
  /** The event's number in the register (requests.jsonl), which its audit entry names. */
  event: number;
  at: string;
  by: string;
  via: 'app' | 'cli';
  change: RequestChangeKind;
  /** What changed, in English, without personal data (e.g. "status: in-progress", "2 acts linked"). */
  summary: string;
}

/** none: never given; shown: decrypted for this view (asked for); hidden: kept, not asked for; unreadable: its key is not here (another keychain, a session that ended); purged: erased for good. */
export type RequesterState = 'none' | 'hidden' | 'shown' | 'unreadable' | 'purged';

/** The legal clock as the core computed it for `now` (the console shows it; it computes nothing). */
export interface RequestClock {
  /** The last day to answer (YYYY-MM-DD, in the register's time zone): the extended one when extended. */
  deadline: string;
  /** The first period's last day, pauses included. */
  firstDeadline: string;
  extendedDeadline?: string;
  /** Days the clock stood still for identity checks (0 when settings say pauses do not stop it). */
  pausedDays: number;
  /** Whole days from today (register's time zone) to the deadline: 0 on the last day, negative once overdue. */
  daysLeft: number;
  state: 'open' | 'due-soon' | 'overdue' | 'paused' | 'closed';
}

/** How many days ahead a request counts as due soon (the console highlights it, `requests due` defaults to it). */
export const DUE_SOON_DAYS = 7;

export interface RequestView {
  id: RequestId;
  receivedAt: string;
  channel: RequestChannel;
  actions: RequestAction[];
  subjects: RequestSubject[];
  notes?: string;
  requester: { state: RequesterState; name?: string; contact?: string; problem?: string };
  status: RequestStatus;
  /** The ground of a refusal, in words (e.g. an Art. 17(3) exception). */
  refusalGround?: string;
  extension?: RequestExtension;
  pauses: RequestPause[];
  links: { actIds: string[]; batchJobIds: string[] };
  history: RequestHistoryEntry[];
  createdAt: string;
  closedAt?: string;
  /** The day the requester's data is purged (closedAt + the settings' years); absent while open. */
  purgeOn?: string;
  purgedAt?: string;
  clock: RequestClock;
}

export const requestFilterSchema = z.object({
  /** A status, or open (not answered nor refused) / closed. */
  status: z.enum([...REQUEST_STATUSES, 'open', 'closed']).optional(),
  /** Found in the id, a uid, the notes, the channel, the refusal ground, and the requester when readable; ignoring case. */
  text: z.string().max(500).optional(),
  profileId: z.string().optional(),
  /** Open requests overdue or due within this many days. */
  dueWithinDays: z.number().int().min(0).max(3660).optional(),
});
export type RequestFilter = z.input<typeof requestFilterSchema>;

/** The register's settings (requests-settings.json in the data folder). */
export const registerSettingsSchema = z.object({
  /** IANA time zone of the DPO: the day a request was received and the day a deadline ends are its days. */
  timeZone: z.string().min(1).max(100),
  /** ISO 3166-1 alpha-2: whose public holidays move a deadline (default France). */
  country: z.string().regex(/^[A-Z]{2}$/),
  /** Whether waiting for the requester's identity stops the clock. */
  pauseStopsClock: z.boolean(),
  /** Years after a request is closed before its requester's name and contact are purged. */
  purgeAfterYears: z.number().int().min(1).max(50),
});
export type RegisterSettings = z.infer<typeof registerSettingsSchema>;
export const DEFAULT_PURGE_AFTER_YEARS = 3;

export type { RegisterCheck } from './audit';

export type RequestExportFormat = 'csv' | 'json';
export interface RequestExport {
  fileName: string;
  mimeType: string;
  content: string;
  count: number;
}

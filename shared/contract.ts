import { z } from 'zod';
import { profileIdSchema } from './profile';
import { ERASURE_ACTIONS, listUsersInputSchema, type ErasureResult, type UserPage } from './users';
import { conformanceInputSchema, type ConformanceRun } from './logout-conformance';
import { logoutOptionsSchema, type BuiltLogoutToken, type LogoutResult, type TokenVerification } from './logout';
import type { AuditEntry, AuditExport, AuditFilter, AuditReading, AuditReadingPage, ChainVerdict } from './audit';
import type { AuditQueryPage, AuditStoreKind } from './audit-query';
import { OUTCOMES, type ErrorInfo } from './errors';
import type { MessageText } from './message-text';
import type { BridgeEventName, BridgeMethodName } from './bridge-methods';
import { jobFinishedSchema, jobIdSchema, jobProgressSchema, usersIndexInputSchema, usersWalkInputSchema } from './jobs';
import { erasedSinceInputSchema, userLookupInputSchema, userSearchInputSchema, type ErasedSinceAnswer, type UserLookupAnswer, type UserSearchAnswer } from './user-search';
import { batchRetryCheckInputSchema, batchRetryInputSchema } from './batch-retry';
import { newRequestSchema, registerSettingsSchema, requestChangeSchema, requestFilterSchema, requestIdSchema, type RegisterSettings, type RequestView } from './requests';
import type { RequestActsLine } from './request-acts';
import type { AnswerPackFiles } from './request-pack-files';
import { reconcileExportInputSchema, reconcileOrphanListInputSchema, reconcileRowsInputSchema, reconcileStartInputSchema, type ReconcileExportFile, type ReconcileOrphanList, type ReconcileRows } from './reconcile';
import { batchCheckInputSchema, batchDiscardInputSchema, batchJobIdInput, batchPreviewInputSchema, batchResultsInputSchema, batchResumeInputSchema, batchStartInputSchema, type BatchJobDamage, type BatchJobSummary, type BatchPreview, type BatchResultsFile } from './batch';
import { teamConnectInputSchema, teamImportInputSchema, type TeamImportPreview, type TeamImportResult, type TeamStatus } from './team-mode';

/**
 * The bridge contract: every method the renderer may call, with a zod schema
 * for its input (parsed in the main process before any handler runs) and the
 * type of its output. Both transports (Electron IPC, the loopback web host)
 * carry exactly these methods and nothing else.
 */

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  applicationName: string;
  /** Loopback address: the sandbox or a local test server, never live data. */
  isLocal: boolean;
  hasCredentials: boolean;
  /** Where the credentials are kept: the OS keychain, or memory for this session only. */
  credentialStorage: 'keychain' | 'session' | 'none';
  /** The API key's last four characters, so the operator can tell keys apart. Never the secret. */
  apiKeyHint?: string;
}

export interface AppInfo {
  version: string;
  locale: string;
  keychain: { available: boolean; problem?: string };
  /** Set when the bundled sandbox was started for this run. */
  sandboxUrl?: string;
  /** Team mode: the team database the trail, jobs and register are kept in (postgres://USER@HOST:PORT/DB). */
  team?: { where: string };
}

export interface ConnectionCheck {
  step: 'token-authentication' | 'token-public' | 'list-users';
  ok: boolean;
  error?: ErrorInfo;
  /** What the step found, worded by the window ("scope authentication, expires in 2 h", "250 users in total"). */
  detail?: MessageText;
}

export interface SandboxUserState {
  exists: boolean;
  anonymized: boolean;
  sessionCount: number;
  messagesCount: number;
  votesCount: number;
}

const uidInput = z.string();
const saveProfileInput = z.object({
  id: profileIdSchema.optional(),
  name: z.string(),
  // Bounds at the bridge, so a huge paste is refused before any message could repeat it.
  baseUrl: z.string().max(2048),
  applicationName: z.string(),
  /** Omitted on edit: keep the stored key. */
  apiKey: z.string().max(4096).optional(),
  /** Write-only. Omitted on edit: keep the stored secret. */
  apiSecret: z.string().max(4096).optional(),
});

const calendarDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
/** The audit filter as it crosses the bridge; matchesAuditFilter (shared/audit.ts) is the one rule that applies it. */
export const auditFilterSchema = z
  .object({
    since: calendarDay.optional(),
    until: calendarDay.optional(),
    operation: z.enum([...ERASURE_ACTIONS, 'logout', 'batch', 'acknowledge', 'request']).optional(),
    outcome: z.enum(['attempted', ...OUTCOMES, 'verification', 'summary', 'acknowledged']).optional(),
    profileId: z.string().max(200).optional(),
    uid: z.string().max(500).optional(),
    reference: z.string().max(200).optional(),
  })
  .strict() satisfies z.ZodType<AuditFilter>;

/** A receipt covers every act under one reference, or one act: exactly one of the two. */
const auditReceiptInputSchema = z
  .object({ reference: z.string().max(200).optional(), actId: z.string().max(100).optional(), locale: z.enum(['en', 'fr']) })
  .refine((input) => (input.reference === undefined) !== (input.actId === undefined), 'give either a reference or an act id');

/** The receipt as it crosses the bridge: the PDF in base64, with the chain head it states. */
export interface AuditReceiptFile {
  fileName: string;
  mimeType: 'application/pdf';
  contentBase64: string;
  acts: number;
  headHash: string | null;
  chainVerified: boolean;
}

export const bridgeContract = {
  'app.info': { input: z.object({}), output: {} as AppInfo },
  'profiles.list': { input: z.object({}), output: {} as { profiles: ProfileView[]; activeId: string | null } },
  'profiles.save': { input: saveProfileInput, output: {} as ProfileView },
  'profiles.remove': { input: z.object({ id: profileIdSchema, confirmName: z.string() }), output: {} as { removed: true } },
  'profiles.setActive': { input: z.object({ id: profileIdSchema }), output: {} as { activeId: string } },
  'profiles.testConnection': { input: z.object({ id: profileIdSchema }), output: {} as { checks: ConnectionCheck[] } },
  'users.list': { input: listUsersInputSchema.extend({ profileId: profileIdSchema }), output: {} as UserPage },
  'users.erase': {
    input: z.object({
      profileId: profileIdSchema,
      action: z.enum(ERASURE_ACTIONS),
      uid: uidInput,
      /** Must equal uid exactly: the typed confirmation. */
      confirmUid: z.string(),
      reference: z.string().max(200).optional(),
      /** End the user's sessions first (a logout token), then erase. */
      logoutFirst: z.boolean().default(true),
      /** A request of the register: checked before anything is sent, its id the reference when none is given, the act linked to it whatever its outcome. */
      requestId: requestIdSchema.optional(),
    }),
    output: {} as ErasureResult,
  },
  'logout.preview': { input: z.object({ profileId: profileIdSchema, uid: uidInput, options: logoutOptionsSchema }), output: {} as BuiltLogoutToken },
  'logout.send': { input: z.object({ profileId: profileIdSchema, uid: uidInput, options: logoutOptionsSchema }), output: {} as LogoutResult },
  'logout.verify': { input: z.object({ profileId: profileIdSchema, token: z.string() }), output: {} as TokenVerification },
  /** The logout conformance run (shared/logout-conformance.ts): every send audited; a live profile needs confirmUid = uid. */
  'logout.conformance': { input: conformanceInputSchema.extend({ profileId: profileIdSchema }), output: {} as ConformanceRun },
  'sandbox.userState': { input: z.object({ profileId: profileIdSchema, uid: uidInput }), output: {} as SandboxUserState | null },
  /** Opens one session for the uid on a loopback sandbox (the logout tester's "Simulate a login"); refused for a live profile, nothing sent. */
  'sandbox.simulateLogin': { input: z.object({ profileId: profileIdSchema, uid: uidInput }), output: {} as { sessionCount: number } },
  'audit.list': { input: z.object({ limit: z.number().int().min(1).max(1000).default(200) }), output: {} as { entries: AuditEntry[] } },
  /** The whole trail: readable entries, corrupt lines with their numbers, the chain's verdict. Never fails because of one bad line. */
  'audit.read': { input: z.object({}), output: {} as AuditReading },
  /** audit.read in pages: the first page reads the trail, the next ones name its `reading`; an expired reading is read afresh (another `reading`). */
  'audit.readPage': {
    input: z.object({ reading: z.string().max(64).optional(), from: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(10_000).default(5_000) }),
    output: {} as AuditReadingPage,
  },
  /** Where the trail is kept: the data folder's file, or the team database (team mode); the console reads a team trail a page at a time. */
  'audit.source': { input: z.object({}), output: {} as { kind: AuditStoreKind; where: string } },
  /**
   * One page of the trail, newest first, filtered where it is kept (shared/audit-query.ts): in the team database by
   * SQL on its indexes, never loaded whole. `cursor`: the `nextCursor` of the page before.
   */
  'audit.queryPage': {
    input: z.object({ filter: auditFilterSchema.default({}), cursor: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(1_000).default(200) }),
    output: {} as AuditQueryPage,
  },
  /** Re-checks the hash chain from the file. */
  'audit.verify': { input: z.object({}), output: {} as ChainVerdict },
  /**
   * Acknowledges an open finding of the trail's anchor with the reason the operator typed (core/audit-anchor-acknowledge.ts):
   * written to the trail as a chained entry; answers verify's verdict after it. A short reason or an id no open finding has is refused.
   */
  'audit.acknowledge': { input: z.object({ finding: z.string().max(40), reason: z.string().max(2000) }), output: {} as ChainVerdict },
  /** The entries the filter keeps, as CSV (formula cells neutralised) or JSON (with the head hash), for the window to save. */
  'audit.export': { input: z.object({ format: z.enum(['csv', 'json']), filter: auditFilterSchema.default({}) }), output: {} as AuditExport },
  /** A PDF receipt (core/receipt.ts) of every act under a reference, or of one act; base64, for the window to save. */
  'audit.receipt': { input: auditReceiptInputSchema, output: {} as AuditReceiptFile },
  /** Starts a walk through every page of users as a job; its events report each page (shared/jobs.ts). */
  'users.walk': { input: usersWalkInputSchema, output: {} as { jobId: string } },
  /** Walks every page and keeps the users in memory (main process only) for users.search; a job like users.walk. */
  'users.index': { input: usersIndexInputSchema, output: {} as { jobId: string } },
  /** Looks through the profile's user index by uid, name or e-mail; { state: 'missing' } when there is none: start users.index. */
  'users.search': { input: userSearchInputSchema, output: {} as UserSearchAnswer },
  /** The user with exactly this uid on the kept list, with its age; 'absent' from an old list proves nothing: read it again (users.index). */
  'users.lookup': { input: userLookupInputSchema, output: {} as UserLookupAnswer },
  /** Drops the profile's user index (the operator asked for fresh data); true when there was one. */
  'users.forgetIndex': { input: usersIndexInputSchema, output: {} as { forgotten: boolean } },
  /** Which uids of a page read at `since` (UserPage.readAt) the audit trail records an erasure of since, by any process; nothing is sent. */
  'users.erasedSince': { input: erasedSinceInputSchema, output: {} as ErasedSinceAnswer },
  /** true: the job was running and stops at its next step; its job.finished event says how it ended. false: no such running job. */
  'jobs.cancel': { input: z.object({ jobId: jobIdSchema }), output: {} as { cancelled: boolean } },
  /** Reads and validates a pasted list or a file's text into a draft (shared/batch.ts); nothing is sent. */
  'batch.preview': { input: batchPreviewInputSchema, output: {} as BatchPreview },
  /** Removes a preview's draft the window no longer shows (replaced or left); a draft being started is kept. Nothing is sent. */
  'batch.discard': { input: batchDiscardInputSchema, output: {} as { discarded: boolean } },
  /** Walks the users list as a job ('batch.check') and counts which of the draft's uids exist. */
  'batch.check': { input: batchCheckInputSchema, output: {} as { jobId: string } },
  /** Checks the typed confirmation, then runs the draft as a job ('batch.run'); its progress names the batch. */
  'batch.start': {
    /** requestId: a request of the register, checked before anything is sent, its id the reference when none is given, the job linked to it. */
    input: batchStartInputSchema.extend({ requestId: requestIdSchema.optional() }),
    output: {} as { jobId: string; batchId: string },
  },
  /** Runs an unfinished batch job again (after a crash, a quit, a cancel) as a 'batch.run' job. */
  'batch.resume': { input: batchResumeInputSchema, output: {} as { jobId: string; batchId: string } },
  /** Walks the users list as a job ('batch.retryCheck') and says which of a finished job's failed uids are still on the service (shared/batch-retry.ts). */
  'batch.retryCheck': { input: batchRetryCheckInputSchema, output: {} as { jobId: string } },
  /** Checks the typed confirmation, then sends the failed items the check found still there again as a 'batch.run' job of the same batch. */
  'batch.retry': { input: batchRetryInputSchema, output: {} as { jobId: string; batchId: string } },
  /** Pauses or resumes a running 'batch.run' job: items in flight finish, nothing new is sent while paused. */
  'batch.setPaused': { input: z.object({ jobId: jobIdSchema, paused: z.boolean() }), output: {} as { paused: boolean } },
  /** Every batch job in the data folder, newest first, with its counts; `damaged`: the jobs whose files cannot be used (never resumable). */
  'batch.list': { input: z.object({}), output: {} as { jobs: BatchJobSummary[]; damaged?: BatchJobDamage[] } },
  /** One job's summary (null when there is no such job). */
  'batch.get': { input: batchJobIdInput, output: {} as { job: BatchJobSummary | null } },
  /** The job's results, one row per item, as CSV (formula cells neutralised) or JSON, for the window to save. */
  'batch.results': { input: batchResultsInputSchema, output: {} as BatchResultsFile },
  /** The register's requests a filter keeps, soonest deadline first (closed last); the requester's contact never (ask requests.get). */
  'requests.list': { input: z.object({ filter: requestFilterSchema.default({}) }), output: {} as { requests: RequestView[] } },
  /** One request; its requester's name and contact decrypted only withContact (the window's "Show contact"). */
  'requests.get': { input: z.object({ id: requestIdSchema, withContact: z.boolean().default(false) }), output: {} as RequestView },
  /** Registers a new request (audited); answers its view with its id and deadline. */
  'requests.create': { input: newRequestSchema, output: {} as RequestView },
  /** One change to a request (update, pause, resume, extend, link, refuse, close, purge), refused with the core's reason when it does not apply. */
  'requests.apply': { input: z.object({ id: requestIdSchema, change: requestChangeSchema }), output: {} as RequestView },
  /** The acts and batch jobs linked to a request, with their outcomes as the audit trail records them; the erasures under its id not linked to it. */
  'requests.acts': { input: z.object({ id: requestIdSchema }), output: {} as { lines: RequestActsLine[]; unlinkedActIds: string[] } },
  /** How many open requests are overdue, and due within DUE_SOON_DAYS (the Requests tab's badge). */
  'requests.dueCount': { input: z.object({}), output: {} as { overdue: number; dueSoon: number } },
  'requests.settings': { input: z.object({}), output: {} as RegisterSettings },
  'requests.saveSettings': { input: registerSettingsSchema.partial(), output: {} as RegisterSettings },
  /** A closed request's answer pack (core/requests/answer-pack.ts): the receipt of its acts and the letter, in a language; the requester named only withContact. */
  'requests.answerPack': { input: z.object({ id: requestIdSchema, language: z.enum(['en', 'fr']), withContact: z.boolean().default(false) }), output: {} as AnswerPackFiles },
  /** Reads the application's uid list as batch.preview does, then walks every user as a job ('reconcile'); the sets stay in the main process (shared/reconcile.ts). Nothing is sent. */
  'reconcile.start': { input: reconcileStartInputSchema, output: {} as { jobId: string } },
  /** One page of a set of a finished reconciliation, filtered. */
  'reconcile.rows': { input: reconcileRowsInputSchema, output: {} as ReconcileRows },
  /** Every set as CSV (formula cells neutralised) or JSON, for the window to save. */
  'reconcile.export': { input: reconcileExportInputSchema, output: {} as ReconcileExportFile },
  /** The orphans (those the filter keeps, or those picked) as a list batch.preview reads whole, with the reconciliation's reference. */
  'reconcile.orphanList': { input: reconcileOrphanListInputSchema, output: {} as ReconcileOrphanList },
  /** Team mode: local, or the team database (reached now or not, and why), its role, schema step and counts. */
  'team.status': { input: z.object({}), output: {} as TeamStatus },
  /** Tests the database and brings its schema up to date, then keeps the password in the keychain and works on it. The password is never sent back. */
  'team.connect': { input: teamConnectInputSchema, output: {} as TeamStatus },
  /** Back to the data folder's files; the password is removed from the keychain; the team's data stays in the database. */
  'team.disconnect': { input: z.object({}), output: {} as { where: string | null } },
  /** What `team import` would move from this data folder (its trail, jobs and register), read from the folder only. */
  'team.importPreview': { input: z.object({}), output: {} as TeamImportPreview },
  /** `team import` from the console: the folder's trail, jobs and register moved into the team database, once; `confirmation` must be IMPORT. */
  'team.import': { input: teamImportInputSchema, output: {} as TeamImportResult },
} as const;

export type BridgeContract = typeof bridgeContract;
export type BridgeMethod = keyof BridgeContract;
export type BridgeInput<M extends BridgeMethod> = z.input<BridgeContract[M]['input']>;
export type BridgeParsedInput<M extends BridgeMethod> = z.output<BridgeContract[M]['input']>;
export type BridgeOutput<M extends BridgeMethod> = BridgeContract[M]['output'];
export const BRIDGE_METHODS = Object.keys(bridgeContract) as BridgeMethod[];

/** What every transport returns: never a thrown error across the bridge. */
export type BridgeResponse<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** The renderer's whole view of the main process. */
export type BridgeClient = { [M in BridgeMethod]: (input: BridgeInput<M>) => Promise<BridgeOutput<M>> };

// Compile-time check: the preload's name list (shared/bridge-methods.ts) and this contract
// must name exactly the same methods. A missing or extra name fails `tsc` here.
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AssertTrue<T extends true> = T;
export type BridgeMethodNamesMatchContract = AssertTrue<SameNames<BridgeMethodName, BridgeMethod>>;

/**
 * The events main sends to the window (main → window only), each with the zod
 * schema of its payload. `satisfies` makes a name missing from, or extra to,
 * BRIDGE_EVENT_NAMES in shared/bridge-methods.ts (the preload's list) fail `tsc` here.
 */
export const bridgeEvents = {
  'job.progress': jobProgressSchema,
  'job.finished': jobFinishedSchema,
} as const satisfies Record<BridgeEventName, z.ZodType>;

export type { BridgeEventName };

export type BridgeEventPayload<E extends BridgeEventName> = z.output<(typeof bridgeEvents)[E]>;

/** One event as it travels: its name and payload, typed together. */
export type BridgeEvent = { [E in BridgeEventName]: { name: E; payload: BridgeEventPayload<E> } }[BridgeEventName];

export type BridgeEventListener<E extends BridgeEventName> = (payload: BridgeEventPayload<E>) => void;

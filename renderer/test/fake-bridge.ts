import type { AppInfo, BridgeInput, BridgeMethod, ProfileView } from '../../shared/contract';
import { fakeConformanceRun } from './fake-conformance';
import { PrivacyDeskError, type ErrorInit } from '../../shared/errors';
import { msg, wordInEnglish } from '../../shared/messages';
import type { UserRecord } from '../../shared/users';
import { SEARCHED_FIELDS, type NearMatch, type RecordedErasure, type UserMatch, type UserSearchAnswer } from '../../shared/user-search';
import { matchesAuditFilter, type AuditEntry, type AuditReading, type ChainVerdict, type CorruptAuditLine } from '../../shared/audit';
import { AUDIT_COUNT_CAP, auditPageOf, type AuditStoreKind } from '../../shared/audit-query';
import type { BatchJobSummary } from '../../shared/batch';
import type { JobProgress } from '../../shared/jobs';
import { createFakeBatch } from './fake-batch';
import { createFakeRequests } from './fake-requests';
import { createFakeReconcile } from './fake-reconcile';
import { createFakeTeam } from './fake-team';
import type { TeamStatus } from '../../shared/team-mode';
import type { RequestView } from '../../shared/requests';
import { createFakeBridgeEvents } from './fake-bridge-events';
import { deriveFakeClient, type FakeBehaviours } from './fake-client';

/** uids that break naive code: spaces, case twins, e-mail, unicode and URL-special characters. */
export const AWKWARD_UIDS = ['alice@example.com', ' bob', 'Carol', 'carol', 'zoë/räksmörgås?#%', 'dave smith'];

export function makeUser(uid: string | null, index: number): UserRecord {
  const fullName = uid === null ? 'Anonymous user' : `User ${index + 1}`;
  return {
    uid,
    fullName,
    email: uid === null ? null : `user${index + 1}@example.com`,
    createdAt: new Date(Date.UTC(2025, 0, 1 + index)).toISOString(),
    messagesCount: index * 3,
    votesCount: index * 7,
    fields: {
      id: index + 1,
      uid,
      full_name: fullName,
      email: uid === null ? null : `user${index + 1}@example.com`,
      city: index % 2 ? 'Lyon' : 'Paris',
      level: { id: 1, name: 'Citizen' },
      created_at: new Date(Date.UTC(2025, 0, 1 + index)).toISOString(),
      messages_count: index * 3,
      votes_count: index * 7,
    },
  };
}

/** The chain head the fake reports: 64 hex characters, like a SHA-256. */
export const FAKE_HEAD_HASH = 'ab12cd34ef56'.padEnd(64, '0');

export const LOCAL_PROFILE: ProfileView = {
  id: 'sandbox',
  name: 'Sandbox',
  baseUrl: 'http://127.0.0.1:4600',
  applicationName: 'demo',
  isLocal: true,
  hasCredentials: true,
  credentialStorage: 'keychain',
  apiKeyHint: 'a1b2',
};

export const LIVE_PROFILE: ProfileView = {
  id: 'city-portal',
  name: 'City portal',
  baseUrl: 'https://debate.example.org',
  applicationName: 'city-portal',
  isLocal: false,
  hasCredentials: true,
  credentialStorage: 'keychain',
  apiKeyHint: 'z9y8',
};

export interface FakeBridgeOptions {
  profiles?: ProfileView[];
  activeId?: string | null;
  userCount?: number;
  /** Pagination headers present: total and totalPages are reported. */
  withTotals?: boolean;
  keychain?: AppInfo['keychain'];
  /** Audit entries already on disk, oldest first (as appended); line numbers follow their order unless given. */
  auditEntries?: Array<AuditEntry & { line?: number }>;
  /** Lines of audit.jsonl that could not be read. */
  auditCorrupt?: CorruptAuditLine[];
  /** The chain's verdict; default verified over the entries with a fixed head. */
  auditVerdict?: ChainVerdict;
  auditSetAside?: AuditReading['setAside'];
  /** Where the trail is kept: 'team' makes the audit view read it a page at a time (audit.queryPage); default 'file'. */
  auditStore?: AuditStoreKind;
  /** Where the team store stops counting (AUDIT_COUNT_CAP unless given): a first page's count above it is "more than". */
  auditCountCap?: number;
  /** Team mode as team.status first reports it (default local); team.connect takes FAKE_TEAM_PASSWORD (fake-team.ts). */
  team?: TeamStatus;
  /** Batch jobs already in the data folder (batch.list), newest or not: the fake sorts them. */
  batchJobs?: BatchJobSummary[];
  /** Requests already in the register (makeRequest in fake-requests.ts), and the requesters' contacts by request id. */
  requests?: RequestView[];
  requesterContacts?: Record<string, { name?: string; contact?: string }>;
}

type Call = { method: BridgeMethod; input: unknown };

/** An in-memory BridgeClient with a call log and one-shot failure injection. */
export function createFakeBridge(options: FakeBridgeOptions = {}) {
  const profiles = [...(options.profiles ?? [LOCAL_PROFILE])];
  let activeId = options.activeId === undefined ? (profiles[0]?.id ?? null) : options.activeId;
  const count = options.userCount ?? 30;
  let users: UserRecord[] = Array.from({ length: count }, (_, i) => makeUser(AWKWARD_UIDS[i] ?? `user-${i + 1}`, i));
  const audit: Array<AuditEntry & { line?: number }> = [...(options.auditEntries ?? [])];
  const auditLines = () => audit.map((entry, index) => ({ ...entry, line: entry.line ?? index + 1 }));
  const auditVerdict = (): ChainVerdict => options.auditVerdict ?? { ok: true, entries: audit.length, headHash: FAKE_HEAD_HASH, chainId: 'chain-1' };
  const calls: Call[] = [];
  const failures = new Map<BridgeMethod, ErrorInit>();
  const events = createFakeBridgeEvents();
  const runningJobs = new Set<string>();
  /** The list of every user as the last users.index job read it (null: none kept); erasures take users out, as in the core. */
  let indexed: UserRecord[] | null = null;
  /** When that list was read (this clock); ageList makes it older. */
  let indexedAtMs = 0;
  const listAge = () => ({ indexedAt: new Date(indexedAtMs).toISOString(), ageMs: Math.max(0, Date.now() - indexedAtMs) });
  /** Erasures recorded by "another process" (eraseElsewhere), for users.lookup to tell. */
  const erasedElsewhere = new Map<string, RecordedErasure>();
  const dropFromIndex = (uid: string) => {
    if (indexed) indexed = indexed.filter((user) => user.uid !== uid);
  };
  /** Which kind each started job is, so a cancel finishes it as its own kind. */
  const jobKinds = new Map<string, 'users.walk' | 'users.index' | 'batch.check' | 'batch.retryCheck' | 'batch.run' | 'reconcile'>();
  const startJob = (kind: 'users.walk' | 'users.index' | 'batch.check' | 'batch.retryCheck' | 'batch.run' | 'reconcile') => {
    const jobId = `job-${calls.length}`;
    runningJobs.add(jobId);
    jobKinds.set(jobId, kind);
    return jobId;
  };
  const batch = createFakeBatch(startJob, profiles, options.batchJobs);
  const register = createFakeRequests(options.requests, options.requesterContacts);
  const reconciliations = createFakeReconcile(startJob, () => users);
  const team = createFakeTeam(options.team);

  const guard = (method: BridgeMethod, input: unknown) => {
    calls.push({ method, input });
    const failure = failures.get(method);
    if (failure) {
      failures.delete(method);
      throw new PrivacyDeskError(failure);
    }
  };

  const behaviours: FakeBehaviours = {
    'app.info': async () => {
      const teamWhere = team.where();
      return { version: '0.1.0', locale: 'en', keychain: options.keychain ?? { available: true }, ...(teamWhere ? { team: { where: teamWhere } } : {}) };
    },
    'profiles.list': async () => {
      return { profiles: [...profiles], activeId };
    },
    'profiles.save': async (input) => {
      const id = input.id ?? input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const saved: ProfileView = {
        id,
        name: input.name,
        baseUrl: input.baseUrl,
        applicationName: input.applicationName,
        isLocal: /^http:\/\/(127\.|localhost)/.test(input.baseUrl),
        hasCredentials: true,
        credentialStorage: 'keychain',
        apiKeyHint: input.apiKey?.slice(-4) ?? profiles.find((p) => p.id === id)?.apiKeyHint,
      };
      const index = profiles.findIndex((p) => p.id === id);
      if (index >= 0) profiles[index] = saved;
      else profiles.push(saved);
      return saved;
    },
    'profiles.remove': async (input) => {
      const index = profiles.findIndex((p) => p.id === input.id);
      if (index >= 0) profiles.splice(index, 1);
      if (activeId === input.id) activeId = null;
      return { removed: true };
    },
    'profiles.setActive': async (input) => {
      activeId = input.id;
      return { activeId: input.id };
    },
    'profiles.testConnection': async () => {
      return {
        checks: [
          { step: 'token-authentication', ok: true, detail: msg('connection.tokenDetail', { scope: 'authentication', expires: msg('duration.hours', { count: 2 }) }) },
          { step: 'token-public', ok: true, detail: msg('connection.tokenDetail', { scope: 'public', expires: msg('duration.hours', { count: 2 }) }) },
          { step: 'list-users', ok: false, error: { code: 'INSUFFICIENT_SCOPE', outcome: 'refused', message: wordInEnglish(msg('list.notAllowed')), text: msg('list.notAllowed') } },
        ],
      };
    },
    'users.list': async (input) => {
      const page = input.page ?? 1;
      const perPage = input.perPage ?? 10;
      const slice = users.slice((page - 1) * perPage, page * perPage);
      const totalPages = Math.max(1, Math.ceil(users.length / perPage));
      return {
        users: slice,
        page,
        perPage,
        hasNext: page * perPage < users.length,
        ...(options.withTotals === false ? {} : { total: users.length, totalPages }),
        readAt: new Date().toISOString(),
      };
    },
    'users.erase': async (input) => {
      if (input.requestId !== undefined) await register.methods['requests.get']({ id: input.requestId, withContact: false });
      const reference = input.reference ?? input.requestId;
      if (input.confirmUid !== input.uid) throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message: 'The typed uid does not match.' });
      const index = users.findIndex((u) => u.uid === input.uid);
      if (index < 0) throw new PrivacyDeskError({ code: 'NOT_FOUND', status: 404, requestId: 'req-404', message: 'No user has this uid. Check it.' });
      dropFromIndex(input.uid);
      if (input.action === 'delete') users = users.filter((_, i) => i !== index);
      else users[index] = { ...users[index]!, uid: null, fullName: 'Anonymous user', email: null };
      // Like the real gate: (logout step,) the erasure step, then the verification, all under one actId.
      const logoutFirst = input.logoutFirst ?? true;
      const base: AuditEntry = { at: new Date().toISOString(), action: input.action, uid: input.uid, profileId: input.profileId, profileName: 'Sandbox', baseUrl: LOCAL_PROFILE.baseUrl, outcome: 'attempted', via: 'app', actId: `act-${audit.length}`, ...(reference ? { reference } : {}) };
      if (logoutFirst) audit.push({ ...base, action: 'logout' }, { ...base, action: 'logout', outcome: 'done', status: 200 });
      audit.push(base, { ...base, outcome: 'done', status: 200, requestId: 'req-1' }, base, { ...base, outcome: 'verification', verification: 'verified', status: 404 });
      if (input.requestId !== undefined) await register.linkAct(input.requestId, { kind: 'act', actId: base.actId!, uid: input.uid, action: input.action, outcome: 'done', verification: 'verified', at: base.at });
      return {
        action: input.action,
        uid: input.uid,
        outcome: 'done',
        status: 200,
        requestId: 'req-1',
        completedAt: new Date().toISOString(),
        ...(logoutFirst ? { logout: { outcome: 'done' as const, status: 200 } } : {}),
        verification: 'verified',
        verificationStatus: 404,
      };
    },
    'logout.preview': async (input) => {
      const claims = { sub: input.uid, aud: input.options.audience ?? 'demo', iat: 1_790_000_000, jti: input.options.jti ?? 'j' };
      // As the core does: a live profile's token comes with its signature withheld (core/logout-exposure.ts).
      const live = profiles.find((p) => p.id === input.profileId)?.isLocal === false;
      const header = { alg: input.options.algorithm ?? 'HS256', typ: 'JWT' };
      if (live) return { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.signature-withheld', header, claims, signatureWithheld: true };
      return { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig', header, claims };
    },
    'logout.send': async (input) => {
      const refused = input.options.negativeCase !== undefined;
      return {
        token: 'a.b.c',
        header: { alg: 'HS256' },
        claims: { sub: input.uid },
        uid: input.uid,
        outcome: refused ? 'refused' : 'done',
        ...(refused ? { errorCode: 'LOGOUT_REJECTED' as const } : {}),
        status: refused ? 400 : 200,
        ok: !refused,
        headers: { 'content-type': 'application/json' },
        body: refused ? { error: 'invalid_request' } : { success: true },
        elapsedMs: 12,
      };
    },
    'logout.conformance': async (input) => fakeConformanceRun(input, profiles),
    'logout.verify': async () => {
      return { valid: false, header: { alg: 'none' }, claims: { sub: 'x' }, problemTexts: [msg('verify.unsigned')], problems: [wordInEnglish(msg('verify.unsigned'))] };
    },
    'sandbox.userState': async () => {
      return { exists: true, anonymized: false, sessionCount: 2, messagesCount: 1, votesCount: 1 };
    },
    'sandbox.simulateLogin': async () => {
      return { sessionCount: 3 };
    },
    'audit.list': async () => {
      return { entries: [...audit].reverse() };
    },
    'audit.read': async () => {
      return { entries: auditLines(), corrupt: [...(options.auditCorrupt ?? [])], verdict: auditVerdict(), outcomeMissing: [], ...(options.auditSetAside ? { setAside: options.auditSetAside } : {}) };
    },
    'audit.readPage': async ({ from = 0, limit = 5_000 }) => {
      const entries = auditLines();
      return { reading: 'fake-reading', entries: entries.slice(from, from + limit), total: entries.length, corrupt: [...(options.auditCorrupt ?? [])], verdict: auditVerdict(), outcomeMissing: [], ...(options.auditSetAside ? { setAside: options.auditSetAside } : {}) };
    },
    'audit.source': async () => {
      return { kind: options.auditStore ?? 'file', where: options.auditStore === 'team' ? 'postgres://dpo@db.example.org:5432/desk' : '/data/audit.jsonl' };
    },
    'audit.queryPage': async (input) => {
      const page = auditPageOf(auditLines(), { filter: input.filter ?? {}, cursor: input.cursor, limit: input.limit ?? 200 });
      const cap = options.auditCountCap ?? AUDIT_COUNT_CAP;
      if (options.auditStore === 'team' && page.count && page.count.value > cap) page.count = { value: cap, exact: false };
      const where = options.auditStore === 'team' ? 'postgres://dpo@db.example.org:5432/desk' : '/data/audit.jsonl';
      return { store: options.auditStore ?? 'file', where, ...page, head: { entries: audit.length, hash: FAKE_HEAD_HASH }, corrupt: input.cursor === undefined ? [...(options.auditCorrupt ?? [])] : [] };
    },
    'audit.verify': async () => {
      return auditVerdict();
    },
    'audit.acknowledge': async () => {
      return auditVerdict();
    },
    'audit.export': async (input) => {
      const kept = auditLines().filter((entry) => matchesAuditFilter(entry, input.filter ?? {}));
      const content = input.format === 'json' ? JSON.stringify({ headHash: FAKE_HEAD_HASH, entries: kept }) : ['at,uid,reference', ...kept.map((e) => `${e.at},${e.uid},${e.reference ?? ''}`)].join('\n');
      return { fileName: `audit.${input.format}`, mimeType: input.format === 'json' ? 'application/json' : 'text/csv', content, headHash: FAKE_HEAD_HASH, count: kept.length };
    },
    'audit.receipt': async (input) => {
      const acts = new Set(auditLines().filter((e) => (input.actId !== undefined ? e.actId === input.actId : matchesAuditFilter(e, { reference: input.reference ?? '' }))).map((e) => e.actId));
      if (acts.size === 0) throw new PrivacyDeskError({ code: 'NOT_FOUND', message: 'No act in the audit trail carries that reference.' });
      return { fileName: `receipt-${input.locale}.pdf`, mimeType: 'application/pdf', contentBase64: btoa('%PDF-1.3 fake receipt'), acts: acts.size, headHash: FAKE_HEAD_HASH, chainVerified: true };
    },
    // Jobs only start: a test drives them with emitEvent (progress, finished).
    'users.walk': async () => {
      return { jobId: startJob('users.walk') };
    },
    // Find a person: the index job only starts (a test finishes it with emitEvent); search then looks through `users`.
    'users.index': async () => {
      return { jobId: startJob('users.index') };
    },
    'users.search': async (input) => {
      if (!indexed) return { state: 'missing' };
      return { ...fakeSearch(indexed, input.text, input.limit ?? 50), ...listAge() };
    },
    // Like the core: found or absent on the kept list, with its age.
    'users.lookup': async (input) => {
      const erasure = erasedElsewhere.get(input.uid);
      if (!indexed) return { state: 'missing', ...(erasure ? { erasure } : {}) };
      const user = indexed.find((candidate) => candidate.uid === input.uid);
      const age = listAge();
      if (user) return { state: 'found', user, ...age };
      // The core's likely mistakes in miniature (core/user-index.ts): the trimmed uid, a case twin.
      const nearMatches = indexed.flatMap((candidate): NearMatch[] =>
        candidate.uid === null || candidate.uid === input.uid
          ? []
          : candidate.uid.trim() === input.uid.trim()
            ? [{ user: candidate, kind: 'edge-spaces' }]
            : candidate.uid.toLowerCase() === input.uid.toLowerCase()
              ? [{ user: candidate, kind: 'case' }]
              : [],
      );
      return { state: 'absent', indexedUsers: indexed.length, ...age, ...(erasure ? { erasure } : {}), ...(nearMatches.length > 0 ? { nearMatches } : {}) };
    },
    // Like the core: the erasures "another process" recorded (eraseElsewhere) since the page was read.
    'users.erasedSince': async (input) => {
      const since = Date.parse(input.since);
      const erasures = input.uids.flatMap((uid) => {
        const erasure = erasedElsewhere.get(uid);
        return erasure && Date.parse(erasure.at) >= since ? [{ uid, ...erasure }] : [];
      });
      return { erasures, complete: true };
    },
    'users.forgetIndex': async () => {
      const forgotten = indexed !== null;
      indexed = null;
      return { forgotten };
    },
    'jobs.cancel': async (input) => {
      const running = runningJobs.has(input.jobId);
      if (running) queueMicrotask(() => finishCancelled(input.jobId));
      return { cancelled: running };
    },
    // Batch jobs, like the others, only start: a test drives them with emitEvent.
    ...batch.methods,
    ...register.methods,
    ...reconciliations.methods,
    ...team.behaviours,
    // As the handler: a job started for a request is linked to it once it exists.
    'batch.start': async (input) => {
      if (input.requestId !== undefined) await register.methods['requests.get']({ id: input.requestId, withContact: false });
      const started = await batch.methods['batch.start']({ ...input, reference: input.reference ?? input.requestId });
      if (input.requestId !== undefined) await register.methods['requests.apply']({ id: input.requestId, change: { kind: 'link', actIds: [], batchJobIds: [started.batchId] } });
      return started;
    },
  };
  const bridge = deriveFakeClient(behaviours, guard);

  /** As main does after jobs.cancel: a batch run stops with its counts (resumable), any other job as cancelled. */
  const finishCancelled = (jobId: string) => {
    const kind = jobKinds.get(jobId) ?? 'users.walk';
    const batchId = batch.batchOf(jobId);
    const job = batchId ? batch.job(batchId) : undefined;
    if (kind === 'batch.run' && batchId && job) {
      emitEvent('job.finished', { jobId, kind, status: 'completed', result: { batchId, total: job.total, counts: job.counts, state: 'cancelled' } });
    } else {
      emitEvent('job.finished', { jobId, kind, status: 'cancelled' });
    }
  };

  const emitEvent: typeof events.emit = (name, payload) => {
    if (name === 'job.finished') runningJobs.delete(payload.jobId);
    if (name === 'job.finished' && payload.kind === 'batch.run' && 'status' in payload) batch.settle(payload.jobId, payload.status === 'completed' ? payload.result : undefined);
    if (name === 'job.progress' && payload.kind === 'batch.run') batch.report(payload as Extract<JobProgress, { kind: 'batch.run' }>);
    if (name === 'job.finished' && payload.kind === 'batch.retryCheck' && 'status' in payload && payload.status === 'completed') batch.checkedFailed(payload.result);
    if (name === 'job.finished' && payload.kind === 'users.index' && 'status' in payload && payload.status === 'completed') {
      indexed = [...users];
      indexedAtMs = Date.now();
    }
    events.emit(name, payload);
  };

  return {
    bridge,
    /** The BridgeEventClient to hand to screens that follow jobs. */
    events: events.client,
    emitEvent,
    listenerCount: events.listenerCount,
    loseContact: events.loseContact,
    regainContact: events.regainContact,
    calls,
    callsOf: <M extends BridgeMethod>(method: M) => calls.filter((c) => c.method === method).map((c) => c.input as BridgeInput<M>),
    failNext: (method: BridgeMethod, error: ErrorInit) => failures.set(method, error),
    get users() {
      return users;
    },
    /** Makes the kept list of every user older by `ms`, as if it had been read that long ago. */
    ageList: (ms: number) => {
      indexedAtMs -= ms;
    },
    /** A user created on the service after the list was read. */
    addUser: (user: UserRecord) => {
      users = [...users, user];
    },
    /** An erasure by another process on this computer (the CLI): gone from the service, recorded in the audit trail. */
    eraseElsewhere: (uid: string, action: 'anonymize' | 'delete' = 'delete') => {
      users = action === 'delete' ? users.filter((user) => user.uid !== uid) : users.map((user) => (user.uid === uid ? { ...user, uid: null, fullName: 'Anonymous user', email: null } : user));
      dropFromIndex(uid);
      erasedElsewhere.set(uid, { action, at: new Date().toISOString(), via: 'cli', outcome: 'done' });
    },
    /** A batch job as the fake's data folder holds it. */
    batchJob: batch.job,
    isPaused: batch.isPaused,
    /** A request as the fake's register holds it. */
    request: register.request,
    /** Ends a started reconcile job as the core would: job.finished with its summary; its sets are kept from then on. */
    finishReconcile: (jobId: string) => {
      const result = reconciliations.settle(jobId);
      if (result) emitEvent('job.finished', { jobId, kind: 'reconcile', status: 'completed', result });
    },
    unlinkedAct: register.unlinkedAct,
  };
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The core's search in miniature (core/user-index.ts): substring of uid, name or e-mail, ignoring case and accents (precomposed text only). */
function fakeSearch(users: UserRecord[], text: string, limit: number): UserSearchAnswer {
  const key = fold(text.trim());
  const matches: UserMatch[] = [];
  for (const user of users) {
    const ranges = SEARCHED_FIELDS.flatMap((field) => {
      const value = user[field];
      const at = value === null ? -1 : fold(value).indexOf(key);
      return at === -1 ? [] : [{ field, start: at, end: at + key.length }];
    });
    if (ranges.length > 0) matches.push({ user, ranges });
  }
  return { state: 'ready', matches: matches.slice(0, limit), total: matches.length, indexedAt: '', ageMs: 0, indexedUsers: users.length };
}

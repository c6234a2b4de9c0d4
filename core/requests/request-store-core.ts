import { randomUUID } from 'node:crypto';
import { PrivacyDeskError, invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { REQUEST_ID, type NewRequest, type RegisterSettings, type RequestChangeInput, type RequestView } from '../../shared/requests';
import type { AuditEntry, AuditEntryAt, AuditReading, AuditVia } from '../../shared/audit';
import { sha256Hex } from '../audit-chain';
import { receiptSource } from '../receipt';
import { parseBoundedJson } from '../bounded-json';
import { isoWithOffset } from '../local-time';
import { buildAnswerPack, checkAnswerPackOptions, packChange } from './answer-pack';
import type { RegisterEventLog, RegisterLine } from './register-event-log';
import { applyEvent, storedEventSchema, type RequestState, type StoredChange, type StoredEvent } from './register-events';
import { buildRequestExport } from './register-export';
import { checkRegister } from './register-check';
import type { RegisterKeyring } from './register-keyring';
import { createChange, storedChange } from './request-rules';
import type { RequestStore } from './request-store';
import { byDeadline, matchesRequestFilter, viewOf } from './request-view';
import { dayInZone } from './time-zone';

/** What the register needs of the audit trail it writes to (the file's or the team database's: the AuditStore of either). */
export interface RegisterAudit {
  append(entry: AuditEntry): Promise<void>;
  read(): Promise<AuditReading>;
}

/** The register's parts: where its events, keys and settings are kept, and the trail that vouches for its events. */
export interface RegisterParts {
  events: RegisterEventLog;
  keyring: RegisterKeyring;
  settings(): Promise<RegisterSettings>;
  saveSettings(changes: Partial<RegisterSettings>): Promise<RegisterSettings>;
  audit: RegisterAudit;
  /** The trail's entries as they stand, read under the register's lock by check(). */
  trailEntries(): Promise<readonly AuditEntryAt[]>;
  operator: string;
  via: Extract<AuditVia, 'app' | 'cli'>;
  appVersion: string;
  now?: () => number;
}

/** The audit entry that vouches for one event of the register (no personal data: the event's hash, never its line). */
export function registerAuditEntry(event: StoredEvent, text: string, context: { operator: string; via: Extract<AuditVia, 'app' | 'cli'>; appVersion: string }): AuditEntry {
  return {
    at: event.at,
    actId: randomUUID(),
    action: 'request',
    outcome: 'done',
    uid: '',
    profileId: '',
    profileName: '',
    baseUrl: '',
    operator: context.operator,
    appVersion: context.appVersion,
    via: context.via,
    register: { requestId: event.request, change: event.change.kind, event: event.event, sha256: sha256Hex(text) },
  };
}

/** The request register over its parts: every change an event, then the audit entry holding its SHA-256, both under the register's lock. */
export function openRequestStore(parts: RegisterParts): RequestStore {
  const { events, keyring, audit, operator, via, settings } = parts;
  const now = parts.now ?? Date.now;

  const statesOf = (lines: readonly RegisterLine[]): Map<string, RequestState> => {
    const states = new Map<string, RequestState>();
    for (const line of lines) applyEvent(states, parseRegisterEvent(line, events));
    return states;
  };
  const stateOf = (states: Map<string, RequestState>, id: string): RequestState => {
    const state = states.get(id.trim().toUpperCase());
    if (!state) throw invalidInput(msg('requests.notFound', { id: id.trim().slice(0, 40) }));
    return state;
  };

  /** Appends the event `decide` makes, then its audit entry, both under the register's lock. */
  const record = async (decide: (states: Map<string, RequestState>, at: string) => Promise<{ id: string; change: StoredChange }>): Promise<string> => {
    const written = await events.append(
      async (lines) => {
        const at = isoWithOffset(new Date(now()));
        const { id, change } = await decide(statesOf(lines), at);
        const last = lines[lines.length - 1];
        const event: StoredEvent = { v: 1, event: (last ? parseRegisterEvent(last, events).event : 0) + 1, at, by: operator, via, request: id, change };
        return { text: JSON.stringify(event), result: event };
      },
      async (line, event) => {
        if (event.change.kind === 'purge') await keyring.shred(event.request);
        await audit.append(registerAuditEntry(event, line.text, { operator, via, appVersion: parts.appVersion }));
      },
    );
    return (written as StoredEvent).request;
  };

  const views = async (withContact: boolean): Promise<RequestView[]> => {
    const [states, current] = [statesOf(await events.read()), await settings()];
    return Promise.all([...states.values()].map((state) => viewOf(state, current, now(), keyring, withContact)));
  };

  const store: RequestStore = {
    async create(input: NewRequest) {
      const current = await settings();
      const id = await record(async (states, at) => {
        const received = typeof input?.receivedAt === 'string' && !Number.isNaN(Date.parse(input.receivedAt)) ? input.receivedAt : at;
        const year = dayInZone(new Date(received), current.timeZone).slice(0, 4);
        const numbers = [...states.keys()].map((known) => REQUEST_ID.exec(known)).filter((m) => m?.[1] === year).map((m) => Number(m?.[2]));
        const next = `REQ-${year}-${String(Math.max(0, ...numbers) + 1).padStart(4, '0')}`;
        return { id: next, change: await createChange(input, next, keyring) };
      });
      return store.get(id);
    },
    async get(id, readOptions = {}) {
      return viewOf(stateOf(statesOf(await events.read()), id), await settings(), now(), keyring, readOptions.withContact === true);
    },
    async list(filter = {}, readOptions = {}) {
      // The requester is searched when text is asked for, and shown only when asked for.
      const searched = (await views(readOptions.withContact === true || Boolean(filter.text?.trim()))).filter((view) => matchesRequestFilter(view, filter)).sort(byDeadline);
      if (readOptions.withContact) return searched;
      return searched.map((view) => (view.requester.state === 'shown' || view.requester.state === 'unreadable' ? { ...view, requester: { state: 'hidden' as const } } : view));
    },
    async apply(id, change: RequestChangeInput) {
      const current = await settings();
      const recorded = await record(async (states, at) => {
        const state = stateOf(states, id);
        return { id: state.id, change: await storedChange(state, change, { settings: current, now: now(), at, keyring }) };
      });
      return store.get(recorded);
    },
    async purgeDue() {
      const today = dayInZone(new Date(now()), (await settings()).timeZone);
      const due = (await views(false)).filter((view) => view.purgeOn !== undefined && !view.purgedAt && view.purgeOn <= today);
      for (const view of due) await store.apply(view.id, { kind: 'purge' });
      return due.map((view) => view.id);
    },
    async export(format, exportOptions = {}) {
      const listed = await store.list(exportOptions.filter ?? {}, { withContact: exportOptions.withContact === true });
      return buildRequestExport(listed, format, isoWithOffset(new Date(now())));
    },
    async answerPack(id, packOptions) {
      checkAnswerPackOptions(packOptions);
      const view = await store.get(id, { withContact: packOptions.withContact === true });
      const pack = await buildAnswerPack({ view, settings: await settings(), trail: receiptSource(await audit.read()), now: now(), generatorVersion: parts.appVersion }, packOptions);
      await record(async (states) => ({ id: stateOf(states, view.id).id, change: packChange(pack) }));
      return pack;
    },
    settings,
    saveSettings: parts.saveSettings,
    check: async (entries) => {
      // Against a reading just made: a change landing between that reading and this one would look unaudited, so
      // only an intact verdict is taken from it; a mismatch is checked again as below.
      if (entries) {
        const quick = checkRegister(await events.read(), entries);
        if (quick.ok) return quick;
      }
      // Under the register's lock: no change is between its event and its audit entry while both are read.
      return events.locked(async () => checkRegister(await events.read(), await parts.trailEntries()));
    },
  };
  return store;
}

/** One event as stored, parsed (never cast); a line that is not one is said damaged, with where. */
export function parseRegisterEvent(line: RegisterLine, events: Pick<RegisterEventLog, 'damaged'>): StoredEvent {
  const json = parseBoundedJson(line.text);
  const parsed = json.ok ? storedEventSchema.safeParse(json.value) : undefined;
  if (parsed?.success) return parsed.data;
  const problem = !json.ok ? json.problem : (parsed?.error.issues[0]?.path.join('.') ?? 'unknown shape');
  throw new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: events.damaged(line.line, problem || 'unknown shape') });
}

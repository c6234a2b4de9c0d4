import { randomUUID } from 'node:crypto';
import { PrivacyDeskError, invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { REQUEST_ID, type NewRequest, type RegisterSettings, type RequestChangeInput, type RequestView } from '../../shared/requests';
import type { AuditVia } from '../../shared/audit';
import { sha256Hex } from '../audit-chain';
import { readWhole } from '../audit-file';
import { receiptSource } from '../receipt';
import type { FileAuditLog } from '../audit-log';
import { parseAuditText } from '../audit-reader';
import { parseBoundedJson } from '../bounded-json';
import type { CredentialStore } from '../credential-store';
import type { DataLockOptions } from '../data-lock';
import { isoWithOffset } from '../local-time';
import { buildAnswerPack, checkAnswerPackOptions, packChange } from './answer-pack';
import { openRegisterKeyring } from './register-crypto';
import { applyEvent, storedEventSchema, type RequestState, type StoredChange, type StoredEvent } from './register-events';
import { buildRequestExport } from './register-export';
import { checkRegister } from './register-check';
import { openRegisterFile, type RegisterLine } from './register-file';
import { readRegisterSettings, saveRegisterSettings } from './register-settings';
import { createChange, storedChange } from './request-rules';
import type { RequestStore } from './request-store';
import { byDeadline, matchesRequestFilter, viewOf } from './request-view';
import { dayInZone } from './time-zone';

export interface LocalRequestStoreOptions {
  dataDir: string;
  /** The data folder's audit trail: every change is also an entry there. */
  audit: FileAuditLog;
  /** Where the register's key is kept (the keychain, or this session's memory), opened on first need. */
  keyStore: () => Promise<CredentialStore>;
  operator: string;
  via: Extract<AuditVia, 'app' | 'cli'>;
  appVersion: string;
  now?: () => number;
  lockOptions?: DataLockOptions;
}

/** The register in the data folder: requests.jsonl (events), requests-keys.json (sealed data keys), requests-settings.json. */
export function openLocalRequestStore(options: LocalRequestStoreOptions): RequestStore {
  const { dataDir, audit, operator, via } = options;
  const now = options.now ?? Date.now;
  const file = openRegisterFile(dataDir, options.lockOptions);
  const keyring = openRegisterKeyring(dataDir, options.keyStore);
  const settings = () => readRegisterSettings(dataDir);

  const statesOf = (lines: readonly RegisterLine[]): Map<string, RequestState> => {
    const states = new Map<string, RequestState>();
    for (const line of lines) applyEvent(states, parseEvent(line, file.path));
    return states;
  };
  const stateOf = (states: Map<string, RequestState>, id: string): RequestState => {
    const state = states.get(id.trim().toUpperCase());
    if (!state) throw invalidInput(msg('requests.notFound', { id: id.trim().slice(0, 40) }));
    return state;
  };

  /** Appends the event `decide` makes, then its audit entry, both under the register's lock. */
  const record = async (decide: (states: Map<string, RequestState>, lines: readonly RegisterLine[], at: string) => Promise<{ id: string; change: StoredChange }>): Promise<string> => {
    const written = await file.append(
      async (lines) => {
        const at = isoWithOffset(new Date(now()));
        const { id, change } = await decide(statesOf(lines), lines, at);
        const last = lines[lines.length - 1];
        const event: StoredEvent = { v: 1, event: (last ? parseEvent(last, file.path).event : 0) + 1, at, by: operator, via, request: id, change };
        return { text: JSON.stringify(event), result: event };
      },
      async (line, event) => {
        if (event.change.kind === 'purge') await keyring.shred(event.request);
        await audit.append({
          at: event.at,
          actId: randomUUID(),
          action: 'request',
          outcome: 'done',
          uid: '',
          profileId: '',
          profileName: '',
          baseUrl: '',
          operator,
          appVersion: options.appVersion,
          via,
          register: { requestId: event.request, change: event.change.kind, event: event.event, sha256: sha256Hex(line.text) },
        });
      },
    );
    return (written as StoredEvent).request;
  };

  const views = async (withContact: boolean): Promise<RequestView[]> => {
    const [states, current] = [statesOf(await file.read()), await settings()];
    return Promise.all([...states.values()].map((state) => viewOf(state, current, now(), keyring, withContact)));
  };

  const store: RequestStore = {
    async create(input: NewRequest) {
      const current = await settings();
      const id = await record(async (states, _lines, at) => {
        const received = typeof input?.receivedAt === 'string' && !Number.isNaN(Date.parse(input.receivedAt)) ? input.receivedAt : at;
        const year = dayInZone(new Date(received), current.timeZone).slice(0, 4);
        const numbers = [...states.keys()].map((known) => REQUEST_ID.exec(known)).filter((m) => m?.[1] === year).map((m) => Number(m?.[2]));
        const next = `REQ-${year}-${String(Math.max(0, ...numbers) + 1).padStart(4, '0')}`;
        return { id: next, change: await createChange(input, next, keyring) };
      });
      return store.get(id);
    },
    async get(id, readOptions = {}) {
      return viewOf(stateOf(statesOf(await file.read()), id), await settings(), now(), keyring, readOptions.withContact === true);
    },
    async list(filter = {}, readOptions = {}) {
      // The requester is searched when text is asked for, and shown only when asked for.
      const searched = (await views(readOptions.withContact === true || Boolean(filter.text?.trim()))).filter((view) => matchesRequestFilter(view, filter)).sort(byDeadline);
      if (readOptions.withContact) return searched;
      return searched.map((view) => (view.requester.state === 'shown' || view.requester.state === 'unreadable' ? { ...view, requester: { state: 'hidden' as const } } : view));
    },
    async apply(id, change: RequestChangeInput) {
      const current = await settings();
      const recorded = await record(async (states, _lines, at) => {
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
      const pack = await buildAnswerPack({ view, settings: await settings(), trail: receiptSource(await audit.read()), now: now(), generatorVersion: options.appVersion }, packOptions);
      await record(async (states) => ({ id: stateOf(states, view.id).id, change: packChange(pack) }));
      return pack;
    },
    settings,
    saveSettings: (changes: Partial<RegisterSettings>) => saveRegisterSettings(dataDir, changes, options.lockOptions),
    check: async (entries) => {
      // Against a reading just made: a change landing between that reading and this one would look unaudited, so
      // only an intact verdict is taken from it; a mismatch is checked again as below.
      if (entries) {
        const quick = checkRegister(await file.read(), entries);
        if (quick.ok) return quick;
      }
      // Under the register's lock: no change is between its line and its audit entry while both are read.
      return file.locked(async () => checkRegister(await file.read(), parseAuditText(await readWhole(audit.path)).entries));
    },
  };
  return store;
}

function parseEvent(line: RegisterLine, path: string): StoredEvent {
  const json = parseBoundedJson(line.text);
  const parsed = json.ok ? storedEventSchema.safeParse(json.value) : undefined;
  if (parsed?.success) return parsed.data;
  const problem = !json.ok ? json.problem : (parsed?.error.issues[0]?.path.join('.') ?? 'unknown shape');
  throw new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('requests.fileDamaged', { line: line.line, path, problem: problem || 'unknown shape' }) });
}

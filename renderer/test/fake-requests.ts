import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { RequestActLine } from '../../shared/request-acts';
import { CLOSED_STATUSES, DUE_SOON_DAYS, type RegisterSettings, type RequestView } from '../../shared/requests';
import type { FakeBehaviours } from './fake-client';

type RequestMethods = Pick<FakeBehaviours, 'requests.list' | 'requests.get' | 'requests.create' | 'requests.apply' | 'requests.acts' | 'requests.dueCount' | 'requests.settings' | 'requests.saveSettings' | 'requests.answerPack'>;

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A request as the core would show it, `daysLeft` from today; the fake computes no real clock (core/requests/clock.ts does). */
export function makeRequest(id: string, daysLeft: number, overrides: Partial<RequestView> = {}): RequestView {
  const deadline = addDays(today(), daysLeft);
  const closed = overrides.status !== undefined && CLOSED_STATUSES.includes(overrides.status);
  const state = closed ? 'closed' : daysLeft < 0 ? 'overdue' : daysLeft <= DUE_SOON_DAYS ? 'due-soon' : 'open';
  const receivedAt = `${addDays(deadline, -30)}T09:00:00Z`;
  return {
    id,
    receivedAt,
    channel: 'e-mail',
    actions: ['anonymize'],
    subjects: [{ uid: `person-of-${id}`, profileId: 'sandbox' }],
    requester: { state: 'hidden' },
    status: 'received',
    pauses: [],
    links: { actIds: [], batchJobIds: [] },
    history: [{ event: 1, at: receivedAt, by: 'dpo', via: 'app', change: 'create', summary: 'created' }],
    createdAt: receivedAt,
    clock: { deadline, firstDeadline: deadline, pausedDays: 0, daysLeft, state },
    ...overrides,
  };
}

/**
 * The requests.* methods over memory, close enough to desk.requests for the screens: list sorts by deadline (closed
 * last) and filters by status, profile and text; the contact is only in a view asked withContact; an extension after
 * the first deadline is refused with the core's message.
 */
export function createFakeRequests(seeded: RequestView[] = [], contacts: Record<string, { name?: string; contact?: string }> = {}) {
  const requests = new Map(seeded.map((request) => [request.id, request]));
  const acts = new Map<string, RequestActLine[]>();
  /** Acts under a request's id as reference that were never linked (unlinkedAct), by request id. */
  const unlinked = new Map<string, string[]>();
  let settings: RegisterSettings = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true, purgeAfterYears: 3 };
  let sequence = seeded.length;

  const find = (id: string): RequestView => {
    const request = requests.get(id);
    if (!request) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('requests.notFound', { id }) });
    return request;
  };
  const save = (request: RequestView, change: RequestView['history'][number]['change'], summary: string): RequestView => {
    const saved = { ...request, history: [...request.history, { event: request.history.length + 1, at: new Date().toISOString(), by: 'dpo', via: 'app' as const, change, summary }] };
    requests.set(saved.id, saved);
    return saved;
  };
  const isOpen = (request: RequestView) => !CLOSED_STATUSES.includes(request.status);
  const sorted = () => [...requests.values()].sort((a, b) => Number(!isOpen(a)) - Number(!isOpen(b)) || a.clock.deadline.localeCompare(b.clock.deadline));

  const methods: RequestMethods = {
    'requests.list': async ({ filter }) => {
      const text = filter.text?.toLowerCase();
      const kept = sorted().filter(
        (request) =>
          (filter.status === undefined || (filter.status === 'open' ? isOpen(request) : filter.status === 'closed' ? !isOpen(request) : request.status === filter.status)) &&
          (filter.profileId === undefined || request.subjects.some((subject) => subject.profileId === filter.profileId)) &&
          (text === undefined || [request.id, request.notes ?? '', ...request.subjects.map((s) => s.uid)].some((field) => field.toLowerCase().includes(text))),
      );
      return { requests: kept };
    },
    'requests.get': async ({ id, withContact }) => {
      const request = find(id);
      const contact = contacts[id];
      return withContact && contact ? { ...request, requester: { state: 'shown', ...contact } } : request;
    },
    'requests.create': async (input) => {
      sequence += 1;
      const id = `REQ-${input.receivedAt.slice(0, 4)}-${String(sequence).padStart(4, '0')}`;
      const created = makeRequest(id, 30, {
        receivedAt: input.receivedAt,
        channel: input.channel,
        actions: input.actions,
        subjects: input.subjects,
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        requester: { state: input.requester ? 'hidden' : 'none' },
      });
      requests.set(id, created);
      return created;
    },
    'requests.apply': async ({ id, change }) => {
      const request = find(id);
      if (!isOpen(request) && change.kind !== 'link' && change.kind !== 'purge') throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('requests.closed', { id, status: request.status }) });
      switch (change.kind) {
        case 'update':
          return save({ ...request, ...change.fields, status: change.fields.status ?? request.status } as RequestView, 'update', 'updated');
        case 'pause':
          return save({ ...request, status: 'waiting-for-identity', pauses: [...request.pauses, { from: change.at ?? new Date().toISOString() }], clock: { ...request.clock, state: 'paused' } }, 'pause', 'clock paused');
        case 'resume':
          return save({ ...request, status: 'in-progress', pauses: request.pauses.map((p) => (p.to ? p : { ...p, to: change.at ?? new Date().toISOString() })) }, 'resume', 'clock resumed');
        case 'extend': {
          if (request.extension) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('requests.alreadyExtended', { id, decidedAt: request.extension.decidedAt }) });
          if (change.personToldAt.slice(0, 10) > request.clock.firstDeadline) {
            throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('requests.extendLate', { id, deadline: request.clock.firstDeadline, late: change.personToldAt.slice(0, 10) }) });
          }
          const extendedDeadline = addDays(request.clock.firstDeadline, 61);
          const extension = { reason: change.reason, personToldAt: change.personToldAt, decidedAt: change.decidedAt ?? new Date().toISOString() };
          return save({ ...request, extension, clock: { ...request.clock, deadline: extendedDeadline, extendedDeadline, state: 'open' } }, 'extend', 'extended by two months');
        }
        case 'link':
          return save({ ...request, links: { actIds: [...request.links.actIds, ...change.actIds], batchJobIds: [...request.links.batchJobIds, ...change.batchJobIds] } }, 'link', 'acts linked');
        case 'refuse':
          return save({ ...request, status: 'refused', refusalGround: change.ground, closedAt: new Date().toISOString(), clock: { ...request.clock, state: 'closed' } }, 'refuse', 'refused');
        case 'close':
          return save({ ...request, status: 'answered', closedAt: new Date().toISOString(), clock: { ...request.clock, state: 'closed' } }, 'close', 'answered');
        case 'purge':
          return save({ ...request, requester: { state: 'purged' } }, 'purge', 'requester purged');
      }
    },
    'requests.acts': async ({ id }) => ({
      lines: find(id).links.actIds.flatMap((actId) => acts.get(id)?.filter((line) => line.actId === actId) ?? []),
      unlinkedActIds: (unlinked.get(id) ?? []).filter((actId) => !find(id).links.actIds.includes(actId)),
    }),
    'requests.dueCount': async () => {
      const open = sorted().filter(isOpen);
      return { overdue: open.filter((r) => r.clock.daysLeft < 0).length, dueSoon: open.filter((r) => r.clock.daysLeft >= 0 && r.clock.daysLeft <= DUE_SOON_DAYS).length };
    },
    'requests.settings': async () => settings,
    'requests.saveSettings': async (changes) => {
      settings = { ...settings, ...changes };
      return settings;
    },
    'requests.answerPack': async ({ id, language, withContact }) => {
      const request = find(id);
      if (isOpen(request)) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('answerPack.requestOpen', { id, status: request.status }) });
      const named = withContact ? contacts[id]?.name : undefined;
      return {
        receipt: { fileName: `privacy-desk-receipt-${id}.pdf`, mimeType: 'application/pdf', contentBase64: btoa('%PDF-1.7 fake') },
        letter: { fileName: `privacy-desk-answer-${id}-${language}.txt`, mimeType: 'text/plain;charset=utf-8', content: `${named ? `Dear ${named},` : 'Dear requester,'}\n` },
        acts: request.links.actIds.length,
        headHash: 'ab12cd34ef56'.padEnd(64, '0'),
        chainVerified: true,
      };
    },
  };

  return {
    methods,
    /** As the users.erase handler does with a requestId: the act, with its outcome, linked to the request. */
    linkAct: async (requestId: string, line: RequestActLine) => {
      acts.set(requestId, [...(acts.get(requestId) ?? []), line]);
      await methods['requests.apply']({ id: requestId, change: { kind: 'link', actIds: [line.actId], batchJobIds: [] } });
    },
    request: (id: string) => requests.get(id),
    /** An act the audit trail holds under the request's id as reference, not linked to it (the CLI without --request). */
    unlinkedAct: (requestId: string, line: RequestActLine) => {
      acts.set(requestId, [...(acts.get(requestId) ?? []), line]);
      unlinked.set(requestId, [...(unlinked.get(requestId) ?? []), line.actId]);
    },
  };
}

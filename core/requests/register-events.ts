import { z } from 'zod';
import { REQUEST_ACTIONS, REQUEST_CHANNELS, REQUEST_ID, requestSubjectSchema, type RequestExtension, type RequestHistoryEntry, type RequestPause, type RequestStatus, type RequestView } from '../../shared/requests';

/**
 * One line of requests.jsonl: an event, parsed (never cast) when the register is read. The requester's name and
 * contact are stored sealed (core/requests/register-crypto.ts): a line never holds them in plain text.
 */
const sealed = z.object({ sealed: z.string().regex(/^v1\.[A-Za-z0-9+/=]+$/) });
export type Sealed = z.infer<typeof sealed>;
const sealedRequester = z.object({ name: sealed.optional(), contact: sealed.optional() });
export type SealedRequester = z.infer<typeof sealedRequester>;
const instant = z.string().min(10).max(40);
const text = z.string().max(5000);

const changeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('create'),
    receivedAt: instant,
    channel: z.enum(REQUEST_CHANNELS),
    actions: z.array(z.enum(REQUEST_ACTIONS)).min(1),
    subjects: z.array(requestSubjectSchema).min(1),
    notes: text.optional(),
    requester: sealedRequester.optional(),
  }),
  z.object({
    kind: z.literal('update'),
    fields: z.object({
      receivedAt: instant.optional(),
      channel: z.enum(REQUEST_CHANNELS).optional(),
      actions: z.array(z.enum(REQUEST_ACTIONS)).min(1).optional(),
      subjects: z.array(requestSubjectSchema).min(1).optional(),
      notes: text.optional(),
      requester: sealedRequester.optional(),
      status: z.literal('in-progress').optional(),
    }),
  }),
  z.object({ kind: z.literal('pause'), at: instant }),
  z.object({ kind: z.literal('resume'), at: instant }),
  z.object({ kind: z.literal('extend'), reason: text, decidedAt: instant, personToldAt: instant }),
  z.object({ kind: z.literal('link'), actIds: z.array(z.string()), batchJobIds: z.array(z.string()) }),
  z.object({ kind: z.literal('refuse'), ground: text }),
  z.object({ kind: z.literal('close') }),
  z.object({ kind: z.literal('purge') }),
  // An answer pack made for a closed request: what it said (withContact: the letter names the requester), and the SHA-256 of each file as produced.
  z.object({ kind: z.literal('pack'), language: z.enum(['en', 'fr']), withContact: z.boolean(), acts: z.number().int().min(0), receiptSha256: z.string().regex(/^[0-9a-f]{64}$/), letterSha256: z.string().regex(/^[0-9a-f]{64}$/) }),
]);
export type StoredChange = z.infer<typeof changeSchema>;

export const storedEventSchema = z.object({
  v: z.literal(1),
  /** 1, 2, 3… over the whole register: what the event's audit entry names. */
  event: z.number().int().min(1),
  at: instant,
  by: z.string().max(200),
  via: z.enum(['app', 'cli']),
  request: z.string().regex(REQUEST_ID),
  change: changeSchema,
});
export type StoredEvent = z.infer<typeof storedEventSchema>;

/** A request as its events leave it (sealed values still sealed: the view opens them only when asked). */
export interface RequestState {
  id: string;
  receivedAt: string;
  channel: RequestView['channel'];
  actions: RequestView['actions'];
  subjects: RequestView['subjects'];
  notes?: string;
  requester: SealedRequester;
  status: RequestStatus;
  refusalGround?: string;
  extension?: RequestExtension;
  pauses: RequestPause[];
  links: { actIds: string[]; batchJobIds: string[] };
  history: RequestHistoryEntry[];
  createdAt: string;
  closedAt?: string;
  purgedAt?: string;
}

/** Applies one event; events arrive in register order. A create for an id already there, or a change of an unknown id, is ignored (verify says why). */
export function applyEvent(states: Map<string, RequestState>, event: StoredEvent): void {
  const { change } = event;
  const entry: RequestHistoryEntry = { event: event.event, at: event.at, by: event.by, via: event.via, change: change.kind, summary: summaryOf(change) };
  if (change.kind === 'create') {
    if (states.has(event.request)) return;
    const { kind: _kind, requester, ...fields } = change;
    states.set(event.request, { id: event.request, ...fields, requester: requester ?? {}, status: 'received', pauses: [], links: { actIds: [], batchJobIds: [] }, history: [entry], createdAt: event.at });
    return;
  }
  const state = states.get(event.request);
  if (!state) return;
  state.history.push(entry);
  switch (change.kind) {
    case 'update': {
      const { requester, status, ...fields } = change.fields;
      Object.assign(state, fields);
      if (requester) state.requester = { ...state.requester, ...requester };
      if (status) state.status = status;
      return;
    }
    case 'pause':
      state.pauses.push({ from: change.at });
      state.status = 'waiting-for-identity';
      return;
    case 'resume': {
      const open = state.pauses[state.pauses.length - 1];
      if (open && open.to === undefined) open.to = change.at;
      state.status = 'in-progress';
      return;
    }
    case 'extend':
      state.extension = { reason: change.reason, decidedAt: change.decidedAt, personToldAt: change.personToldAt };
      return;
    case 'link':
      state.links.actIds = [...new Set([...state.links.actIds, ...change.actIds])];
      state.links.batchJobIds = [...new Set([...state.links.batchJobIds, ...change.batchJobIds])];
      if (state.status === 'received') state.status = 'in-progress';
      return;
    case 'refuse':
      state.status = 'refused';
      state.refusalGround = change.ground;
      state.closedAt = event.at;
      closeOpenPause(state, event.at);
      return;
    case 'close':
      state.status = 'answered';
      state.closedAt = event.at;
      closeOpenPause(state, event.at);
      return;
    case 'purge':
      state.requester = {};
      state.purgedAt = event.at;
      return;
    case 'pack':
      return;
  }
}

function closeOpenPause(state: RequestState, at: string): void {
  const open = state.pauses[state.pauses.length - 1];
  if (open && open.to === undefined) open.to = at;
}

/** What changed, in English and without personal data (the requester is said changed, never named). */
function summaryOf(change: StoredChange): string {
  switch (change.kind) {
    case 'create':
      return `received ${change.receivedAt} by ${change.channel}: ${change.actions.join(', ')} for ${change.subjects.length} uid${change.subjects.length === 1 ? '' : 's'}`;
    case 'update': {
      const { requester, ...rest } = change.fields;
      const names = Object.keys(rest).filter((key) => rest[key as keyof typeof rest] !== undefined);
      if (requester) names.push('requester');
      return `changed: ${names.join(', ')}${change.fields.status ? ` (status ${change.fields.status})` : ''}`;
    }
    case 'pause':
      return `clock paused at ${change.at} (waiting for identity)`;
    case 'resume':
      return `clock resumed at ${change.at}`;
    case 'extend':
      return `extended by two months (decided ${change.decidedAt}, person told ${change.personToldAt}): ${change.reason}`;
    case 'link':
      return [change.actIds.length ? `${change.actIds.length} act${change.actIds.length === 1 ? '' : 's'} linked` : '', change.batchJobIds.length ? `batch job ${change.batchJobIds.join(', ')} linked` : ''].filter(Boolean).join('; ');
    case 'refuse':
      return `refused: ${change.ground}`;
    case 'close':
      return 'answered and closed';
    case 'purge':
      return 'requester’s name and contact purged';
    case 'pack':
      return `answer pack made in ${change.language}: receipt of ${change.acts} act${change.acts === 1 ? '' : 's'} and letter${change.withContact ? ' naming the requester' : ''}`;
  }
}

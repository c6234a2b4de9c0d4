import type { z } from 'zod';
import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { newRequestSchema, requestChangeSchema, type Requester, type RegisterSettings, type RequestChangeInput, type NewRequest } from '../../shared/requests';
import type { RegisterKeyring } from './register-keyring';
import type { RequestState, SealedRequester, StoredChange } from './register-events';
import { lateExtension } from './request-clock';

/**
 * Whether a change applies to a request as it stands, and the event it becomes. Everything is checked before the
 * register is written: a refusal says why and that nothing was written.
 */

/** Input parsed by its schema; the first problem said with its field. */
export function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalidInput(msg('requests.invalid', { field: issue?.path.join('.') || 'the request', problem: issue?.message ?? 'is not valid' }));
}

export async function sealRequester(keyring: RegisterKeyring, id: string, requester: Requester | undefined): Promise<SealedRequester | undefined> {
  if (!requester || (requester.name === undefined && requester.contact === undefined)) return undefined;
  const sealed: SealedRequester = {};
  if (requester.name !== undefined) sealed.name = await keyring.seal(id, 'name', requester.name);
  if (requester.contact !== undefined) sealed.contact = await keyring.seal(id, 'contact', requester.contact);
  return sealed;
}

export async function createChange(input: NewRequest, id: string, keyring: RegisterKeyring): Promise<StoredChange> {
  const { requester, ...fields } = parsed(newRequestSchema, input);
  const sealed = await sealRequester(keyring, id, requester);
  return { kind: 'create', ...fields, ...(sealed ? { requester: sealed } : {}) };
}

export interface ChangeContext {
  settings: RegisterSettings;
  now: number;
  /** ISO 8601 with offset, for dates that default to now. */
  at: string;
  keyring: RegisterKeyring;
}

export async function storedChange(state: RequestState, input: RequestChangeInput, context: ChangeContext): Promise<StoredChange> {
  const change = parsed(requestChangeSchema, input);
  const { id } = state;
  if (state.purgedAt && change.kind !== 'link') throw invalidInput(msg('requests.purged', { id, at: state.purgedAt }));
  const closed = state.status === 'answered' || state.status === 'refused';
  // A closed request still takes the acts done for it, and its purge.
  if (closed && change.kind !== 'link' && change.kind !== 'purge') throw invalidInput(msg('requests.closed', { id, status: state.status }));
  const openPause = state.pauses.find((pause) => pause.to === undefined);
  const notBefore = (at: string, since: string) => {
    if (Date.parse(at) < Date.parse(since)) throw invalidInput(msg('requests.pauseBeforeReceipt', { id, at }));
  };
  switch (change.kind) {
    case 'update': {
      const { requester, ...fields } = change.fields;
      const sealed = await sealRequester(context.keyring, id, requester);
      return { kind: 'update', fields: { ...fields, ...(sealed ? { requester: sealed } : {}) } };
    }
    case 'pause': {
      if (openPause) throw invalidInput(msg('requests.alreadyPaused', { id, since: openPause.from }));
      const at = change.at ?? context.at;
      notBefore(at, state.receivedAt);
      return { kind: 'pause', at };
    }
    case 'resume': {
      if (!openPause) throw invalidInput(msg('requests.notPaused', { id }));
      const at = change.at ?? context.at;
      notBefore(at, openPause.from);
      return { kind: 'resume', at };
    }
    case 'extend': {
      if (state.extension) throw invalidInput(msg('requests.alreadyExtended', { id, decidedAt: state.extension.decidedAt }));
      const decidedAt = change.decidedAt ?? context.at;
      for (const at of [decidedAt, change.personToldAt]) if (Date.parse(at) < Date.parse(state.receivedAt)) throw invalidInput(msg('requests.extendBeforeReceipt', { id, at }));
      const late = lateExtension(state, decidedAt, change.personToldAt, context.settings);
      if (late) throw invalidInput(msg('requests.extendLate', { id, deadline: late.deadline, late: late.late }));
      return { kind: 'extend', reason: change.reason, decidedAt, personToldAt: change.personToldAt };
    }
    case 'link':
      return { kind: 'link', actIds: change.actIds.filter((a) => !state.links.actIds.includes(a)), batchJobIds: change.batchJobIds.filter((j) => !state.links.batchJobIds.includes(j)) };
    case 'refuse':
      return { kind: 'refuse', ground: change.ground };
    case 'close':
      return { kind: 'close' };
    case 'purge':
      if (!closed) throw invalidInput(msg('requests.notClosed', { id }));
      return { kind: 'purge' };
  }
}

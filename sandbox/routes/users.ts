import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorize, sendUnauthorized } from '../auth';
import type { SandboxContext } from '../context';
import { DEFAULT_PER_PAGE } from '../defaults';
import type { ServiceUser, StoredUser } from '../types';
import { markUidRequest } from '../uid-requests';
import { paginate, paginationHeaders, positiveInteger, type PageRequest } from './pagination';

type Sorter = (a: StoredUser, b: StoredUser) => number;
const byId: Sorter = (a, b) => a.record.id - b.record.id;
const byCreatedAt: Sorter = (a, b) => a.record.created_at.localeCompare(b.record.created_at) || byId(a, b);
const SORTERS: Record<string, Sorter> = {
  id: byId,
  '-id': (a, b) => byId(b, a),
  created_at: byCreatedAt,
  '-created_at': (a, b) => byCreatedAt(b, a),
};

interface ListQuery {
  page?: string;
  per_page?: string;
  sort?: string;
  countless?: string;
  api_key?: string;
}

function inOrder(users: readonly StoredUser[], sorter: Sorter): boolean {
  for (let i = 1; i < users.length; i += 1) if (sorter(users[i - 1]!, users[i]!) > 0) return false;
  return true;
}

function badRequest(reply: FastifyReply, error: string): FastifyReply {
  return reply.code(400).send({ success: false, error });
}

/** The list accepts a `public` token, or the API key as the `api_key` query parameter. */
function allowedToList(ctx: SandboxContext, request: FastifyRequest<{ Querystring: ListQuery }>, reply: FastifyReply): boolean {
  const apiKey = request.query.api_key;
  if (apiKey !== undefined) {
    if (apiKey === ctx.credentials.apiKey) return true;
    sendUnauthorized(ctx, reply);
    return false;
  }
  return authorize(ctx, request, reply, 'public');
}

function listBody(ctx: SandboxContext, users: ServiceUser[], request: PageRequest, total: number, totalPages: number, hasNext: boolean): unknown {
  switch (ctx.config.variants.listBody) {
    case 'bare-array':
      return users;
    case 'users-key':
      return { users };
    case 'data-meta': {
      const meta: Record<string, unknown> = { current_page: request.page, per_page: request.perPage, next_page: hasNext ? request.page + 1 : null };
      if (!request.countless) Object.assign(meta, { total, total_pages: totalPages });
      return { data: users, meta };
    }
    case 'success-data':
      return { success: true, data: users };
  }
}

export function sendUserNotFound(ctx: SandboxContext, reply: FastifyReply): FastifyReply {
  switch (ctx.config.variants.notFoundBody) {
    case 'empty':
      return reply.code(404).send();
    case 'error-200':
      // A service that puts its status in the body and always answers 200.
      return reply.code(200).send({ error: 'User not found', status: 404 });
    case 'json':
      return reply.code(404).send({ success: false, error: 'User not found' });
  }
}

/** The variants whose 200 says the erasure failed: the user is left as it was. */
function erasureFailureBody(ctx: SandboxContext): Record<string, unknown> | undefined {
  switch (ctx.config.variants.erasureResponse) {
    case 'success-false':
      return { success: false };
    case 'error-200':
      return { error: 'The user could not be erased', status: 500 };
    default:
      return undefined;
  }
}

/** Erases through `erase` (false: no active user has the uid), then answers as the variants say. */
function answerErasure(ctx: SandboxContext, reply: FastifyReply, uid: string, erase: (uid: string) => boolean): FastifyReply {
  const failure = erasureFailureBody(ctx);
  if (failure && ctx.state.findActive(uid)) return reply.code(200).send(failure);
  if (!erase(uid)) return sendUserNotFound(ctx, reply);
  switch (ctx.config.variants.erasureResponse) {
    case '204':
      return reply.code(204).send();
    case 'empty-200':
      return reply.code(200).send();
    default:
      return reply.code(200).send({ success: true });
  }
}

export function registerUserRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Querystring: ListQuery }>('/api/v1/users', async (request, reply) => {
    if (!allowedToList(ctx, request, reply)) return reply;
    const page = positiveInteger(request.query.page, 1);
    if (page === null) return badRequest(reply, 'The page parameter must be a whole number of 1 or more.');
    const asked = positiveInteger(request.query.per_page, DEFAULT_PER_PAGE);
    if (asked === null) return badRequest(reply, 'The per_page parameter must be a whole number of 1 or more.');

    const countless = request.query.countless === 'true';
    const keep: Record<string, string> = {};
    const sort = request.query.sort;
    // Unknown sort values are ignored (default order), as a Rails app that allow-lists them would.
    const sorter = (sort !== undefined && SORTERS[sort]) || byId;
    if (sort !== undefined && SORTERS[sort]) keep.sort = sort;
    if (countless) keep.countless = 'true';
    const pageRequest: PageRequest = { page, perPage: Math.min(asked, ctx.config.variants.perPageCap), countless, keep };

    // Sorting a copy of 100,000 users for every page would make the sandbox, not the client, the slow part of a walk.
    const all = ctx.state.allUsers();
    const sorted = inOrder(all, sorter) ? all : [...all].sort(sorter);
    const result = paginate(sorted, pageRequest);
    if (ctx.config.variants.paginationHeaders) {
      const baseUrl = `${request.protocol}://${request.headers.host ?? request.hostname}/api/v1/users`;
      reply.headers(paginationHeaders(baseUrl, pageRequest, result));
    }
    const users = result.items.map((u) => u.record);
    return reply.send(listBody(ctx, users, pageRequest, result.total, result.totalPages, result.hasNext));
  });

  // find-my-way percent-decodes the uid segment exactly once ('+' stays '+').
  app.post<{ Params: { uid: string } }>('/api/v1/users/:uid/anonymize', async (request, reply) => {
    markUidRequest(request, request.params.uid, 'anonymize');
    if (!authorize(ctx, request, reply, 'authentication')) return reply;
    return answerErasure(ctx, reply, request.params.uid, (uid) => ctx.state.anonymize(uid));
  });

  app.delete<{ Params: { uid: string } }>('/api/v1/users/:uid', async (request, reply) => {
    markUidRequest(request, request.params.uid, 'delete');
    if (!authorize(ctx, request, reply, 'authentication')) return reply;
    return answerErasure(ctx, reply, request.params.uid, (uid) => ctx.state.delete(uid));
  });
}

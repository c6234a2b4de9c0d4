import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_CLOCK_ADVANCE_SECONDS } from '../clock';
import { describeIssues, faultsUpdateSchema, splitUpdate } from '../config';
import type { SandboxContext } from '../context';
import { MAX_UID_LENGTH } from '../../shared/uid';

/** Test-only routes under /sandbox/: no auth, never faulted, not part of the service's API. */

const nullableString = z.string().nullable().optional();
const newUserSchema = z.strictObject({
  uid: z.string().min(1).max(MAX_UID_LENGTH),
  full_name: nullableString,
  email: nullableString,
  image_url: nullableString,
  description: nullableString,
  slug: z.string().min(1).optional(),
  hash_id: z.string().min(1).optional(),
  created_at: z.iso.datetime({ offset: true }).optional(),
  last_activity: z.iso.datetime({ offset: true }).nullable().optional(),
  score: z.number().int().min(0).optional(),
  points: z.number().int().min(0).optional(),
  messages_count: z.number().int().min(0).max(100_000).optional(),
  votes_count: z.number().int().min(0).max(100_000).optional(),
  age: z.number().int().min(0).max(150).nullable().optional(),
  city: nullableString,
  occupation: nullableString,
  interests: nullableString,
  level: z.strictObject({ id: z.number().int(), name: z.string(), icon_url: z.string() }).optional(),
  /** Sessions to open for the new user. */
  sessions: z.number().int().min(0).max(100).optional(),
});

const ROUTES = [
  'GET /sandbox/users/{uid}: state of a uid (active, anonymized, deleted), its record, session and contribution counts, and its anonymise/delete/logout requests (404 with the requests if it never existed)',
  'POST /sandbox/users/{uid}/login: open a session for the user; returns sessionCount',
  'POST /sandbox/users: create a user from JSON (uid required); 409 if the uid exists',
  'POST /sandbox/reset: users back to the seed, stats and request log cleared, faults and variants as at start (the clock is not turned back)',
  'GET /sandbox/faults: current faults and variants',
  'PUT /sandbox/faults: change faults and/or variants (partial JSON, flat or {faults, variants})',
  'GET /sandbox/stats: token, API and logout request counts',
  'POST /sandbox/stats/reset: set the counts back to zero',
  'GET /sandbox/clock: the sandbox\'s time (now, ISO 8601 and epoch milliseconds) and how far tests moved it',
  'POST /sandbox/clock: move the sandbox\'s clock forward, JSON {"advanceSeconds": N}: tokens expire and rate-limit windows pass without waiting',
];

const clockAdvanceSchema = z.strictObject({ advanceSeconds: z.number().min(0).max(MAX_CLOCK_ADVANCE_SECONDS) });

function clockView(ctx: SandboxContext): { now: string; nowMs: number; advancedSeconds: number } {
  const nowMs = ctx.clock.now();
  return { now: new Date(nowMs).toISOString(), nowMs, advancedSeconds: ctx.clock.advancedMs / 1000 };
}

export function registerInspectRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/sandbox/', async () => ({
    sandbox: true,
    note: 'Inspection routes of the local sandbox; they do not exist on the real service.',
    applicationName: ctx.credentials.applicationName,
    routes: ROUTES,
  }));

  app.get<{ Params: { uid: string } }>('/sandbox/users/:uid', async (request, reply) => {
    const uid = request.params.uid;
    const inspection = ctx.state.inspect(uid);
    // A uid that never existed may still have been asked for: its requests are shown with the 404.
    const requests = ctx.requestLog.of(uid);
    if (!inspection) return reply.code(404).send({ error: 'This uid never existed in the sandbox.', requests });
    return { ...inspection, requests };
  });

  app.post<{ Params: { uid: string } }>('/sandbox/users/:uid/login', async (request, reply) => {
    const sessionCount = ctx.state.login(request.params.uid);
    if (sessionCount === undefined) return reply.code(404).send({ error: 'No active user has this uid.' });
    return { sessionCount };
  });

  app.post('/sandbox/users', async (request, reply) => {
    const parsed = newUserSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: `Invalid user: ${describeIssues(parsed.error)}` });
    const user = ctx.state.create(parsed.data);
    if (!user) return reply.code(409).send({ error: 'An active user already has this uid.' });
    return reply.code(201).send({ user: user.record, sessionCount: user.sessions.length });
  });

  app.post('/sandbox/reset', async () => {
    ctx.reset();
    return { success: true, users: ctx.state.allUsers().length };
  });

  app.get('/sandbox/faults', async () => ({ faults: ctx.config.faults, variants: ctx.config.variants }));

  app.put('/sandbox/faults', async (request, reply) => {
    const parsed = faultsUpdateSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: `Invalid faults or variants: ${describeIssues(parsed.error)}` });
    const { faults, variants } = splitUpdate(parsed.data);
    ctx.config.setFaults(faults);
    ctx.config.setVariants(variants);
    return { faults: ctx.config.faults, variants: ctx.config.variants };
  });

  app.get('/sandbox/clock', async () => clockView(ctx));

  app.post('/sandbox/clock', async (request, reply) => {
    const parsed = clockAdvanceSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: `Invalid clock change: ${describeIssues(parsed.error)}` });
    ctx.clock.advance(parsed.data.advanceSeconds);
    return clockView(ctx);
  });

  app.get('/sandbox/stats', async () => ctx.stats);

  app.post('/sandbox/stats/reset', async () => {
    ctx.stats.tokenRequests = { authentication: 0, public: 0, failed: 0 };
    ctx.stats.apiRequests = 0;
    ctx.stats.logoutRequests = 0;
    return ctx.stats;
  });
}

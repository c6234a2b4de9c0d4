import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeContract, BRIDGE_METHODS, type BridgeMethod, type BridgeResponse, type ProfileView } from '../shared/contract';
import { errorInfoSchema } from '../shared/errors';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

// Property-based fuzzing of every bridge method through dispatchBridgeCall, over a real Desk
// (temporary data folder, session credential store) and a real sandbox. A fixed seed keeps runs
// repeatable; fast-check prints the seed and the shrunk input on failure (FUZZ_SEED=… to replay).
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS_PER_METHOD = Number(process.env.FUZZ_RUNS ?? 40);

const SECRET = 'fuzz-test-secret-3c8e1a7f5b9d2e4c6a0f8b1d3e5c7a9f2b4d6e8a0c1f3b5d7e9a2c4f6b8d0e1a3c';
const API_KEY = 'fuzz-test-key-WXYZ';

let sandbox: RunningSandbox;
let dataDir: string;
let handlers: BridgeHandlers;
let profile: ProfileView;
let someUid: string;

/**
 * One valid input per method; the fuzzer breaks one part of it at a time. Nothing here erases a real user.
 * A new bridge method needs its template here (the first test says which is missing).
 */
function templates(): Partial<Record<BridgeMethod, Record<string, unknown>>> {
  return {
    'app.info': {},
    'profiles.list': {},
    'profiles.save': { name: 'Fuzzed', baseUrl: `${sandbox.url}/api/v1/`, applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET },
    'profiles.remove': { id: 'fuzz-no-such-profile', confirmName: 'Fuzzed' },
    'profiles.setActive': { id: profile.id },
    'profiles.testConnection': { id: profile.id },
    'users.list': { profileId: profile.id, page: 1, perPage: 5 },
    // confirmUid differs from uid: a fuzzed call that still parses is refused, never carried out.
    'users.erase': { profileId: profile.id, action: 'anonymize', uid: 'fuzz-nobody', confirmUid: 'fuzz-someone-else', logoutFirst: false },
    'logout.preview': { profileId: profile.id, uid: someUid, options: { extraClaims: { note: 'fuzz' } } },
    'logout.send': { profileId: profile.id, uid: 'fuzz-nobody', options: {} },
    'logout.verify': { profileId: profile.id, token: 'not.a.token' },
    'logout.conformance': { profileId: profile.id, uid: 'fuzz-nobody' },
    'sandbox.userState': { profileId: profile.id, uid: someUid },
    'sandbox.simulateLogin': { profileId: profile.id, uid: 'fuzz-nobody' },
    'audit.list': { limit: 10 },
    'audit.read': {},
    'audit.readPage': { from: 0, limit: 10 },
    'audit.source': {},
    'audit.queryPage': { filter: {}, limit: 10 },
    'audit.verify': {},
    // No finding has this id: a fuzzed acknowledgement that still parses writes nothing.
    'audit.acknowledge': { finding: 'abcdefabcdef', reason: 'A fuzzed reason, long enough to be read.' },
    'audit.export': { format: 'json', filter: {} },
    'audit.receipt': { reference: 'fuzz-no-such-reference', locale: 'en' },
    'users.walk': { profileId: 'fuzz-no-such-profile', perPage: 10 },
    'users.index': { profileId: 'fuzz-no-such-profile' },
    'users.search': { profileId: profile.id, text: 'fuzz', limit: 5 },
    'users.lookup': { profileId: profile.id, uid: 'fuzz-nobody' },
    'users.forgetIndex': { profileId: profile.id },
    'users.erasedSince': { profileId: profile.id, since: '2026-11-22T12:00:00.000Z', uids: ['fuzz-nobody'] },
    'jobs.cancel': { jobId: 'fuzz-no-such-job' },
    // A draft id and a batch job that do not exist: a fuzzed start or resume that still parses sends nothing.
    'batch.preview': { text: 'fuzz-a\nfuzz-b', kind: 'list', sourceName: 'fuzz.txt' },
    'batch.discard': { draftId: 'f'.repeat(32) },
    'batch.check': { draftId: 'f'.repeat(32), profileId: profile.id },
    'batch.start': { draftId: 'f'.repeat(32), profileId: profile.id, action: 'anonymize', logoutFirst: false, concurrency: 2, confirmation: 'ANONYMISE 2' },
    'batch.resume': { batchId: '20000101-000000-000000', concurrency: 2, confirmation: 'DELETE 1' },
    'batch.retryCheck': { batchId: '20000101-000000-000000' },
    'batch.retry': { batchId: '20000101-000000-000000', checkId: 'fuzz-no-such-check', concurrency: 2, confirmation: 'DELETE 1' },
    'batch.setPaused': { jobId: 'fuzz-no-such-job', paused: true },
    'batch.list': {},
    'batch.get': { batchId: '20000101-000000-000000' },
    'batch.results': { batchId: '20000101-000000-000000', format: 'csv' },
    // A request the register does not hold: a fuzzed get or change that still parses writes nothing.
    'requests.list': { filter: { status: 'open', text: 'fuzz' } },
    'requests.get': { id: 'REQ-2000-0001', withContact: false },
    'requests.create': { receivedAt: '2026-03-03T09:12:00+01:00', channel: 'e-mail', actions: ['anonymize'], subjects: [{ uid: 'fuzz-nobody' }], notes: 'fuzz' },
    'requests.apply': { id: 'REQ-2000-0001', change: { kind: 'refuse', ground: 'fuzz' } },
    'requests.acts': { id: 'REQ-2000-0001' },
    'requests.dueCount': {},
    'requests.settings': {},
    'requests.saveSettings': { purgeAfterYears: 3 },
    'requests.answerPack': { id: 'REQ-2000-0001', language: 'en', withContact: false },
    // An unknown profile and a reconciliation that was never made: a fuzzed call that still parses reads nothing.
    'reconcile.start': { profileId: 'fuzz-no-such-profile', text: 'fuzz-a\nfuzz-b', kind: 'list', sourceName: 'fuzz.txt' },
    'reconcile.rows': { reconcileId: 'f'.repeat(32), set: 'orphans', filter: '', offset: 0, limit: 10 },
    'reconcile.export': { reconcileId: 'f'.repeat(32), format: 'csv' },
    'reconcile.orphanList': { reconcileId: 'f'.repeat(32), filter: '' },
    // Built on a bare Desk (no runtime to switch stores): connect and disconnect are refused before anything is reached.
    'team.status': {},
    'team.connect': { databaseUrl: 'postgres://fuzz@127.0.0.1:1/none', password: 'fuzz-password' },
    'team.disconnect': {},
    'team.importPreview': {},
    'team.import': { confirmation: 'not-the-word' },
  };
}

/** An object whose own keys include __proto__ / constructor (JSON.parse makes them own properties, as a transport would). */
const pollutingObject = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"__proto__":null,"toString":"x","hasOwnProperty":1}',
  '{"prototype":{"polluted":true},"__defineGetter__":"x"}',
).map((json) => JSON.parse(json) as unknown);

function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = asArray ? [value] : { a: value };
  return value;
}

const CONTROL_AND_BIDI = ['\u0000', '\u0007', '\u001b', '\u001b]0;title\u0007', '\u001b[2K\u001b[1A', '\r', '\n', '\u007f', '\u0085', '\u202e', '\u2066', '\u200b', '\ufeff'];
const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\ude00b'];

const hostileString = fc.oneof(
  fc.constantFrom(10_000, 100_000, 1_000_000).map((length) => 'x'.repeat(length)),
  fc.array(fc.oneof(fc.constantFrom(...CONTROL_AND_BIDI), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...LONE_SURROGATES), fc.string({ maxLength: 6 })).map((parts) => parts.join('')),
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'toString', '../../etc/passwd', '%00', '\\u0000'),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.oneof(fc.integer(), fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, Number.MAX_SAFE_INTEGER + 2), fc.bigInt()),
  fc.constantFrom(null, undefined, true, false),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.anything({ maxDepth: 3 }),
  pollutingObject,
  fc.tuple(fc.integer({ min: 500, max: 6000 }), fc.boolean()).map(([depth, asArray]) => nested(depth, asArray)),
  fc.constantFrom(() => 'function', Symbol('symbol'), new Date(Number.NaN), new Map([['a', 1]])),
);

/** One way of breaking a valid input: a field replaced or removed, a polluting key added, nesting, or the whole input replaced. */
function brokenInput(template: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.keys(template);
  const withField = (change: (copy: Record<string, unknown>, field: string, value: unknown) => void) =>
    fc.tuple(fields.length ? fc.constantFrom(...fields) : fc.constant('extra'), hostileValue).map(([field, value]) => {
      const copy = { ...template };
      change(copy, field, value);
      return copy;
    });
  return fc.oneof(
    withField((copy, field, value) => (copy[field] = value)),
    withField((copy, field) => delete copy[field]),
    // Every nested object gets the hostile value too: options.extraClaims, filter…
    withField((copy, field, value) => {
      const inner = copy[field];
      copy[field] = inner && typeof inner === 'object' && !Array.isArray(inner) ? { ...inner, fuzzed: value, ...(value as object) } : value;
    }),
    pollutingObject.map((extra) => Object.assign(JSON.parse(JSON.stringify(template)) as object, extra)),
    pollutingObject.map((extra) => ({ ...JSON.parse('{"__proto__":{"polluted":true}}'), ...template, ...(extra as object) })),
    hostileValue,
  );
}

/** fast-check's report, with long runs of one character (the huge strings) shortened so the seed and the cause stay readable. */
function shortReport(details: fc.RunDetails<[unknown]>): void {
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const message = `${cause}\n${fc.defaultReportMessage(details)}`.replace(/(.)\1{40,}/gs, (run, char: string) => `${char.repeat(8)}…(${run.length} × ${JSON.stringify(char)})`);
  throw new Error(message.length > 6_000 ? `${message.slice(0, 6_000)}… (report cut)` : message);
}

async function dispatchOrThrow(method: string, input: unknown): Promise<BridgeResponse<unknown>> {
  try {
    return await dispatchBridgeCall(handlers, method, input);
  } catch (error) {
    throw new Error(`dispatchBridgeCall threw for ${method} (it must always answer): ${(error as Error)?.name}: ${(error as Error)?.message}`, { cause: error });
  }
}

/** True when the method's schema refuses the input (zod itself may throw on hostile input: that counts as refusing here). */
function schemaRefuses(method: BridgeMethod, input: unknown): boolean {
  try {
    return !bridgeContract[method].input.safeParse(input === undefined ? {} : input).success;
  } catch {
    return true;
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: 12, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-bridge-fuzz-'));
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', via: 'app' });
  // users.walk's template names an unknown profile, so a fuzzed walk that still parses ends at once.
  const jobs = createJobRegistry(() => {});
  handlers = createBridgeHandlers({ desk, appInfo: () => ({ version: '9.9.9', locale: 'en-GB', keychain: desk.keychainStatus(), sandboxUrl: sandbox.url }), jobs });
  const saved = await dispatchOrThrow('profiles.save', { name: 'Fuzz target', baseUrl: `${sandbox.url}/api/v1/`, applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET });
  if (!saved.ok) throw new Error(`setup: profiles.save failed: ${saved.error.message}`);
  profile = saved.value as ProfileView;
  const page = await dispatchOrThrow('users.list', { profileId: profile.id, page: 1, perPage: 5 });
  if (!page.ok) throw new Error(`setup: users.list failed: ${page.error.message}`);
  someUid = (page.value as { users: { uid: string }[] }).users[0]!.uid;
}, 30_000);

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('bridge fuzzing (fast-check): hostile input never crashes a method or answers INTERNAL', () => {
  it('every template is a valid input, so each fuzzed call breaks exactly what the fuzzer changed', () => {
    const all = templates();
    expect(Object.keys(all).sort()).toEqual([...BRIDGE_METHODS].sort());
    for (const method of BRIDGE_METHODS) expect(schemaRefuses(method, all[method]), method).toBe(false);
  });

  it.each(BRIDGE_METHODS.map((method) => [method]))(
    '%s: a refused input is INVALID_INPUT and not-sent; nothing is ever INTERNAL',
    async (method) => {
      const template = templates()[method] ?? {};
      await fc.assert(
        fc.asyncProperty(brokenInput(template), async (input) => {
          const refusedBySchema = schemaRefuses(method, input);
          const response = await dispatchOrThrow(method, input);
          if (response.ok) {
            expect(refusedBySchema, 'a call the schema refuses must not succeed').toBe(false);
            return;
          }
          const error = errorInfoSchema.parse(response.error); // a typed error: known code, outcome, a message
          expect(error.code, `${method} answered INTERNAL: ${error.message}`).not.toBe('INTERNAL');
          expect(error.message.length).toBeGreaterThan(0);
          expect(error.message.length, 'the answer does not echo a huge input').toBeLessThan(2_000);
          if (refusedBySchema) expect({ code: error.code, outcome: error.outcome }).toEqual({ code: 'INVALID_INPUT', outcome: 'not-sent' });
        }),
        { seed: SEED, numRuns: RUNS_PER_METHOD, endOnFailure: true, reporter: shortReport },
      );
    },
    120_000,
  );

  it('afterwards: nothing was polluted and ordinary calls still work', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    const listed = await dispatchOrThrow('users.list', { profileId: profile.id, page: 1, perPage: 5 });
    expect(listed.ok).toBe(true);
    const state = await dispatchOrThrow('sandbox.userState', { profileId: profile.id, uid: someUid });
    expect(state).toMatchObject({ ok: true, value: { exists: true } });
    const profiles = await dispatchOrThrow('profiles.list', {});
    expect(profiles.ok && (profiles.value as { profiles: ProfileView[] }).profiles.some((p) => p.id === profile.id)).toBe(true);
  });
});

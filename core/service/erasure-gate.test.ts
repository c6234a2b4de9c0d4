import { describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import type { AuditEntry } from '../../shared/audit';
import type { AuditLog } from '../audit-log';
import { memoryAudit } from '../test/memory-audit';
import { exportedNames, importGraph, productSources, type SourceFile } from '../../tests/lint/import-graph';
import { createErasureGate, openGatedConnection } from './erasure-gate';
import type { ServiceActs } from './service-acts';

const profile = { id: 'prod-1a2b3c', name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'news' };

function fakeActs(overrides: Partial<ServiceActs> = {}): ServiceActs & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    erase: async (action, uid) => {
      calls.push(`${action}:${uid}`);
      return { action, uid, outcome: 'done', status: 200, completedAt: '2026-11-21T00:00:00.000Z' };
    },
    sendLogout: async (uid) => {
      calls.push(`logout:${uid}`);
      return { uid, outcome: 'refused', errorCode: 'LOGOUT_REJECTED', status: 400, ok: false, headers: {}, body: { error: 'invalid_request' }, elapsedMs: 3, token: 'x', header: {}, claims: {} };
    },
    ...overrides,
  };
}

function gateWith(acts: ServiceActs, audit: AuditLog, via: AuditEntry['via'] = 'app') {
  return createErasureGate({ acts, profile, audit, via, operator: 'dpo', appVersion: '9.9.9' });
}

describe('erasure gate: batch items', () => {
  const job = { jobId: '20261122-190712-3fa9c1', action: 'delete' as const, logoutFirst: true, reference: 'REQ-1' };

  it('writes every attempted entry of a group before anything is sent, and the outcomes with the next group', async () => {
    const audit = memoryAudit();
    const acts = fakeActs();
    const batch = gateWith(acts, audit).openBatch(job);
    const attempts = await batch.admit([{ uid: 'ann', reference: 'T-1' }, { uid: 'bob' }]);
    expect(acts.calls).toEqual([]);
    expect(audit.entries.map((e) => `${e.action}:${e.uid}:${e.outcome}`)).toEqual(['logout:ann:attempted', 'delete:ann:attempted', 'logout:bob:attempted', 'delete:bob:attempted']);
    expect(audit.entries.every((e) => e.via === 'batch' && e.jobId === job.jobId)).toBe(true);
    expect(audit.entries.map((e) => e.reference)).toEqual(['T-1', 'T-1', undefined, undefined]);
    expect(await attempts[0]!.send()).toMatchObject({ outcome: 'done', status: 200 });
    await expect(attempts[0]!.send()).rejects.toThrow('sent once');
    expect(acts.calls).toEqual(['logout:ann', 'delete:ann']);
    await batch.admit([{ uid: 'cy' }]);
    expect(audit.entries.slice(4).map((e) => `${e.action}:${e.uid}:${e.outcome}`)).toEqual(['logout:ann:refused', 'delete:ann:done', 'logout:cy:attempted', 'delete:cy:attempted']);
    await batch.flush({ operation: 'delete', total: 3, done: 1, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 2, ended: 'cancelled' });
    expect(audit.entries.at(-1)).toMatchObject({ action: 'batch', outcome: 'summary', uid: '', reference: 'REQ-1', batch: { ended: 'cancelled' } });
  });

  it('sends nothing when the attempted entries cannot be written', async () => {
    const acts = fakeActs();
    const full = gateWith(acts, memoryAudit(() => true)).openBatch(job);
    await expect(full.admit([{ uid: 'ann' }])).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent' });
    expect(acts.calls).toEqual([]);
  });

  it('refuses an item that can never be sent on its own, with its own reason, and lets the others of its group go', async () => {
    const acts = fakeActs();
    const audit = memoryAudit();
    const batch = gateWith(acts, audit).openBatch({ ...job, logoutFirst: false });
    const attempts = await batch.admit([{ uid: 'ok' }, { uid: '..' }, { uid: 'long-ref', reference: `T-${'9'.repeat(298)}` }, { uid: 'ok-too', reference: ` ${'r'.repeat(200)} ` }]);
    // Only the items that can be sent have an attempted entry.
    expect(audit.entries.map((e) => `${e.uid}:${e.outcome}`)).toEqual(['ok:attempted', 'ok-too:attempted']);
    const results = await Promise.all(attempts.map((attempt) => attempt.send()));
    expect(results.map((result) => result.outcome)).toEqual(['done', 'not-sent', 'not-sent', 'done']);
    expect(results[1]?.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('cannot be sent in a request path') });
    expect(results[2]?.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('The reference is 300 characters long; references are at most 200') });
    expect(results[2]?.error?.message).not.toContain('audit');
    expect(acts.calls).toEqual(['delete:ok', 'delete:ok-too']);
  });

  it('an error ends as a result with its outcome, never thrown, and its outcome entry says so', async () => {
    const audit = memoryAudit();
    const acts = fakeActs({ erase: async () => { throw new PrivacyDeskError({ code: 'SERVER_ERROR', outcome: 'unknown', status: 502, message: 'Bad gateway.' }); } });
    const batch = gateWith(acts, audit).openBatch({ ...job, logoutFirst: false });
    const [attempt] = await batch.admit([{ uid: 'ann', actId: 'act-1' }]);
    expect(await attempt!.send()).toMatchObject({ outcome: 'unknown', status: 502, error: { code: 'SERVER_ERROR' } });
    await batch.flush();
    expect(audit.entries.map((e) => [e.actId, e.outcome, e.errorCode])).toEqual([['act-1', 'attempted', undefined], ['act-1', 'unknown', 'SERVER_ERROR']]);
  });
});

describe('erasure gate', () => {
  it('tells the operator the act happened when only the outcome line could not be written', async () => {
    const audit = memoryAudit((e) => e.outcome === 'done');
    const acts = fakeActs();
    await expect(gateWith(acts, audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob', logoutFirst: false })).rejects.toMatchObject({
      code: 'AUDIT_WRITE_FAILED',
      outcome: 'done',
      message: expect.stringMatching(/^The user was deleted, but the audit trail \/memory could not record that: the disk is full\. .* Do not repeat the act/),
    });
    expect(acts.calls).toEqual(['delete:bob']);
    expect(audit.entries.map((e) => e.outcome)).toEqual(['attempted']);
  });

  it('sends nothing when the attempted entry cannot be written: not-sent', async () => {
    const audit = memoryAudit((e) => e.outcome === 'attempted');
    const acts = fakeActs();
    await expect(gateWith(acts, audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob' })).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent' });
    await expect(gateWith(acts, audit).logout({ uid: 'bob' })).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent' });
    expect(acts.calls).toEqual([]);
  });

  it('refuses an unknown action, a bad uid, a mismatch and an over-long reference before anything is written or sent: not-sent', async () => {
    const audit = memoryAudit();
    const acts = fakeActs();
    const gate = gateWith(acts, audit);
    for (const order of [
      { action: 'purge' as 'delete', uid: 'bob', confirmUid: 'bob' },
      { action: 'delete' as const, uid: 'a\nb', confirmUid: 'a\nb' },
      { action: 'delete' as const, uid: 'bob', confirmUid: 'Bob' },
      { action: 'delete' as const, uid: 'bob', confirmUid: 'bob', reference: 'x'.repeat(201) },
    ]) {
      await expect(gate.erase(order)).rejects.toMatchObject({ outcome: 'not-sent' });
    }
    await expect(gate.logout({ uid: 'x\u0000' })).rejects.toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
    expect(acts.calls).toEqual([]);
    expect(audit.entries).toEqual([]);
  });

  it("marks the tester's negative cases as tests in both entries, and real logouts not", async () => {
    const audit = memoryAudit();
    await gateWith(fakeActs(), audit).logout({ uid: 'bob', options: { negativeCase: 'wrong-secret' } });
    await gateWith(fakeActs(), audit).logout({ uid: 'bob' });
    expect(audit.entries.map((e) => [e.outcome, e.test?.case])).toEqual([
      ['attempted', 'wrong-secret'],
      ['refused', 'wrong-secret'],
      ['attempted', undefined],
      ['refused', undefined],
    ]);
  });

  it('audits a refused logout with its outcome and code, and returns the result', async () => {
    const audit = memoryAudit();
    const result = await gateWith(fakeActs(), audit, 'cli').logout({ uid: 'bob' });
    expect(result).toMatchObject({ ok: false, outcome: 'refused' });
    expect(audit.entries.map((e) => [e.action, e.outcome, e.errorCode, e.status])).toEqual([
      ['logout', 'attempted', undefined, undefined],
      ['logout', 'refused', 'LOGOUT_REJECTED', 400],
    ]);
  });

  it("pairs each act's attempted and outcome entries by one actId, different for every act", async () => {
    const audit = memoryAudit();
    // logoutFirst: false keeps this about pairing; log out, then erase, then verify: erasure-gate.logout-verify.test.ts.
    await gateWith(fakeActs(), audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob', logoutFirst: false });
    await gateWith(fakeActs(), audit).logout({ uid: 'bob' });
    const timingOut = fakeActs({ erase: async () => Promise.reject(new PrivacyDeskError({ code: 'TIMEOUT', message: 'outcome unknown' })) });
    await gateWith(timingOut, audit).erase({ action: 'delete', uid: 'bob', confirmUid: 'bob', logoutFirst: false }).catch(() => undefined);
    expect(audit.entries.map((e) => e.outcome)).toEqual(['attempted', 'done', 'attempted', 'verification', 'attempted', 'refused', 'attempted', 'unknown']);
    const ids = audit.entries.map((e) => e.actId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([new Set(ids.slice(0, 4)).size, ids[4] === ids[5], ids[6] === ids[7]]).toEqual([1, true, true]);
    expect(new Set(ids).size).toBe(3);
  });

  it('records a thrown failure with its code and outcome, and rethrows it unchanged', async () => {
    for (const [error, outcome] of [
      [new PrivacyDeskError({ code: 'TIMEOUT', message: 'no answer' }), 'unknown'],
      [new PrivacyDeskError({ code: 'NETWORK', outcome: 'not-sent', message: 'refused connection' }), 'not-sent'],
      [new PrivacyDeskError({ code: 'NOT_FOUND', status: 404, message: 'no such user' }), 'refused'],
      [new TypeError('a bug'), 'unknown'],
    ] as const) {
      const audit = memoryAudit();
      const acts = fakeActs({ erase: async () => Promise.reject(error) });
      await expect(gateWith(acts, audit).erase({ action: 'anonymize', uid: 'bob', confirmUid: 'bob' })).rejects.toBe(error);
      expect(audit.entries.at(-1)).toMatchObject({ outcome });
    }
  });
});

describe('the gate is the only way to an irreversible call', () => {
  it('a connection opened through the gate offers reads only; the acts stay inside', () => {
    const { client, gate } = openGatedConnection(
      { profile, credentials: { apiKey: 'k', apiSecret: 's' }, fetch: async () => new Response('{}') },
      { audit: memoryAudit(), via: 'app', operator: 'dpo', appVersion: '9.9.9' },
    );
    expect(Object.keys(client).sort()).toEqual(['buildLogoutToken', 'checkToken', 'listUsers', 'profile', 'verifyLogoutToken']);
    expect(Object.keys(gate).sort()).toEqual(['erase', 'logout', 'logoutConformance', 'openBatch']);
  });

  // The import graph of every product source file (TypeScript's parser and module resolution, every form of import).
  const SERVICE = 'core/service/';
  const DOOR = 'core/service/erasure-gate.ts';
  // Written out by hand (not read from eslint.config.js's LAZY_LOADS), so the two must agree.
  const LAZY_LOADS = [
    "app-runtime/app-runtime.ts: import('../core/keytar-credential-store')",
    'bin/privacy-desk.js: import(bundle.href)',
    "core/keytar-credential-store.ts: import('keytar')",
    "core/receipt-pdf.ts: import('pdfkit')",
    "core/requests/holidays.ts: import('date-holidays')",
    "core/team/team-stores.ts: import('./team-open')",
  ];
  const sideDoors = (files: readonly SourceFile[]) => {
    const { edges, loads } = importGraph(files);
    return {
      intoService: edges.filter((e) => !e.from.startsWith(SERVICE) && e.to.startsWith(SERVICE) && e.to !== DOOR).map((e) => `${e.from} → ${e.to} (${e.kind})`),
      loads: loads.map((l) => `${l.file}: ${l.what}`).filter((load) => !LAZY_LOADS.includes(load)),
      lazyLoads: loads.map((l) => `${l.file}: ${l.what}`).filter((load) => LAZY_LOADS.includes(load)).sort(),
    };
  };
  const sources = productSources();

  it('outside core/service/, every import of it (static, type, re-export, import(), require) ends at its door', () => {
    expect(sources.length).toBeGreaterThan(200);
    const { edges } = importGraph(sources);
    // The graph is real: the Desk, the batch runner and the CLI do reach the door.
    expect(edges).toContainEqual(expect.objectContaining({ from: 'core/desk.ts', to: DOOR }));
    expect(sideDoors(sources).intoService).toEqual([]);
  });

  it('no product file loads code at run time (import(), require, createRequire, eval) but the listed lazy loads', () => {
    const found = sideDoors(sources);
    expect(found.loads).toEqual([]);
    expect(found.lazyLoads).toEqual([...LAZY_LOADS].sort());
  });

  it('catches each way a handler could reach an act without the gate', () => {
    const probes: SourceFile[] = [
      { path: 'handlers/probe-tokens.ts', text: "import { sendAuthorized, TokenManager } from '../core/service/token-manager';\nexport const send = (m: TokenManager) => sendAuthorized;\n" },
      { path: 'handlers/probe-import.ts', text: "export const acts = async () => (await import('../core/service/service-acts')).createServiceActs;\n" },
      { path: 'handlers/probe-require.ts', text: "import { createRequire } from 'node:module';\nexport const acts = createRequire(import.meta.url)('../core/service/service-acts');\n" },
      { path: 'cli/probe-require.ts', text: "export const acts = require('../core/service/service-acts');\n" },
      { path: 'web-host/probe-types.ts', text: "export type { ServiceActs } from '../core/service/service-acts';\nexport type Tokens = import('../core/service/token-manager').TokenManager;\n" },
      { path: 'core/probe-http.ts', text: "import type { HttpDeps } from './service/http';\nexport type Deps = HttpDeps;\n" },
      { path: 'newfolder/probe.ts', text: "export { connectToService } from '../core/service/service-client';\n" },
      // Inside the folder, and through the door, are fine.
      { path: 'core/service/probe-inside.ts', text: "import { createServiceActs } from './service-acts';\nexport const make = createServiceActs;\n" },
      { path: 'handlers/probe-door.ts', text: "import { openGatedConnection } from '../core/service/erasure-gate';\nexport const open = openGatedConnection;\n" },
    ];
    const found = sideDoors(probes);
    expect(found.intoService).toEqual([
      'handlers/probe-tokens.ts → core/service/token-manager.ts (import)',
      'handlers/probe-import.ts → core/service/service-acts.ts (import())',
      'cli/probe-require.ts → core/service/service-acts.ts (require())',
      'web-host/probe-types.ts → core/service/service-acts.ts (export from)',
      'web-host/probe-types.ts → core/service/token-manager.ts (import type node)',
      'core/probe-http.ts → core/service/http.ts (import type)',
      'newfolder/probe.ts → core/service/service-client.ts (export from)',
    ]);
    expect(found.loads).toEqual([
      "handlers/probe-import.ts: import('../core/service/service-acts')",
      "handlers/probe-require.ts: import 'node:module'",
      'handlers/probe-require.ts: createRequire()',
      'cli/probe-require.ts: require()',
    ]);
  });

  it('the door exports only the gate, read-only helpers and types: nothing that sends an act without it', () => {
    expect(exportedNames(DOOR)).toEqual([
      'BatchAttempt', 'BatchGate', 'BatchJobOrder', 'BatchOrder', 'BatchSendResult', 'ConformanceOrder', 'ErasureGate', 'ErasureOrder', 'GateRecord', 'GatedConnection', 'LogoutOrder',
      'ServiceConnection', 'createErasureGate', 'fetchSandboxUserState', 'logoutRefusal', 'openGatedConnection', 'simulateSandboxLogin',
    ]);
  });
});

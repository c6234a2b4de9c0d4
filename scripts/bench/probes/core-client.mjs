// The core's service client, measured in process (run through tsx by scripts/bench/parts/core.mjs):
// - overhead: list calls through the Desk, as `privacy-desk users list` makes them, against raw `fetch` of the
//   same URL with the same token, one call at a time, in alternating blocks;
// - single flight: concurrent calls on a new client (cold token cache), counted by the sandbox per scope.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionCredentialStore } from '../../../core/credential-store.ts';
import { createDesk } from '../../../core/desk.ts';
import { createServiceClient } from '../../../core/service/service-client.ts';
import { serveProbe } from '../probe-process.mjs';

const { BENCH_URL: baseUrl, BENCH_APP: applicationName, PRIVACY_DESK_API_KEY: apiKey, PRIVACY_DESK_API_SECRET: apiSecret } = process.env;
const credentials = { apiKey, apiSecret };
const PAGE = { page: 1, perPage: 10 };
// The URL the core's lister asks for that page (core/service/list-users.ts).
const LIST_URL = `${baseUrl}/api/v1/users?page=${PAGE.page}&per_page=${PAGE.perPage}`;
const BLOCKS = 10;

// In the bench's work folder, which it removes at the end: the probe itself ends by a signal, not by its own exit.
const dataDir = mkdtempSync(join(process.env.BENCH_WORK ?? tmpdir(), 'core-'));
const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli', appVersion: 'bench', operator: 'bench' });
const profile = desk.useTemporaryConnection({ baseUrl, applicationName, credentials });

async function publicToken() {
  const answer = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: apiKey, client_secret: apiSecret, scope: 'public' }).toString(),
  });
  if (answer.status !== 200) throw new Error(`token request answered ${answer.status}`);
  return (await answer.json()).access_token;
}

async function timed(calls, call) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i += 1) await call();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const sandboxCall = async (method, path) => (await fetch(`${baseUrl}${path}`, { method })).json();

serveProbe({
  async overhead({ calls }) {
    const token = await publicToken();
    // The same headers the core sends; the body read and parsed, as any caller must.
    const raw = async () => {
      const answer = await fetch(LIST_URL, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', 'Content-Type': 'application/json' } });
      if (answer.status !== 200) throw new Error(`raw list answered ${answer.status}`);
      await answer.json();
    };
    const core = async () => {
      const page = await desk.listUsers(profile.id, PAGE);
      if (page.users.length === 0) throw new Error('the core listed no users');
    };
    // A warm-up of both, so neither side pays for the first connection or the JIT.
    await timed(Math.min(100, calls), core);
    await timed(Math.min(100, calls), raw);
    let coreMs = 0;
    let rawMs = 0;
    const perBlock = Math.max(1, Math.round(calls / BLOCKS));
    for (let block = 0; block < BLOCKS; block += 1) {
      // Alternate which side goes first, so a drift of the machine's pace falls on both.
      if (block % 2 === 0) {
        coreMs += await timed(perBlock, core);
        rawMs += await timed(perBlock, raw);
      } else {
        rawMs += await timed(perBlock, raw);
        coreMs += await timed(perBlock, core);
      }
    }
    return { coreMs, rawMs, calls: perBlock * BLOCKS };
  },

  async singleFlight({ calls }) {
    await sandboxCall('POST', '/sandbox/stats/reset');
    // A new client: nothing cached. Half the calls need a public token (a list), half an authentication one.
    const client = createServiceClient({ profile: { id: 'bench', name: 'bench', baseUrl, applicationName }, credentials });
    await Promise.all(Array.from({ length: calls }, (_, i) => (i % 2 === 0 ? client.listUsers(PAGE) : client.checkToken('authentication'))));
    const { tokenRequests } = await sandboxCall('GET', '/sandbox/stats');
    return { authentication: tokenRequests.authentication, public: tokenRequests.public };
  },
});

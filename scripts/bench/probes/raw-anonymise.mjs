#!/usr/bin/env node
// What a person would write instead of the batch command: a token, then a plain `fetch` loop sending one
// anonymise request per uid, N at once. No journal, no audit trail, no retries. Run as its own process so its
// time (Node's start included) compares with the CLI's.
//   node raw-anonymise.mjs FILE CONCURRENCY   (service from BENCH_URL, credentials from PRIVACY_DESK_API_KEY/SECRET)
import { readFileSync } from 'node:fs';

const [file, concurrencyText] = process.argv.slice(2);
const base = process.env.BENCH_URL;
const uids = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
const concurrency = Number(concurrencyText);

const tokenAnswer = await fetch(`${base}/oauth/token`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: process.env.PRIVACY_DESK_API_KEY,
    client_secret: process.env.PRIVACY_DESK_API_SECRET,
    scope: 'authentication',
  }).toString(),
});
if (tokenAnswer.status !== 200) throw new Error(`token request answered ${tokenAnswer.status}`);
const { access_token: token } = await tokenAnswer.json();

let next = 0;
let done = 0;
const worker = async () => {
  while (next < uids.length) {
    const uid = uids[next++];
    // The same request the core sends (core/service/service-acts.ts): POST with `{}`, JSON both ways.
    const answer = await fetch(`${base}/api/v1/users/${encodeURIComponent(uid)}/anonymize`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', 'Content-Type': 'application/json' },
      body: '{}',
    });
    await answer.text();
    if (answer.status === 200) done += 1;
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));
process.stdout.write(`${JSON.stringify({ done })}\n`);

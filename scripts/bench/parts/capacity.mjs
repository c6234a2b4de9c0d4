// Batch capacity: the built CLI's batch anonymisation against what a person would use instead, sending the same
// requests to the same sandbox (reset before each run, so every uid is there again):
// - a raw `fetch` loop at the same concurrency (its own Node process, so both include a process start);
// - at 50 ms of service latency, a shell loop running one `curl` per request, one after another. Sending N of
//   those would take minutes, so a sample of them is timed and its time per item scaled to N.
// Each figure is a ratio of rates: above 1, the batch is faster.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliBatch } from '../batch-cli.mjs';
import { root } from '../paths.mjs';
import { runOk } from '../processes.mjs';

const CONCURRENCY = 16;
const LATENCY_MS = 50;

export const capacityPart = {
  name: 'capacity',
  async setup({ options, sandboxes, work }) {
    const sandbox = await sandboxes.get(options.smallUsers);
    const uids = (await sandbox.uids()).slice(0, options.batchItems);
    const dir = mkdtempSync(join(work, 'capacity-'));
    const uidFile = join(dir, 'uids.txt');
    writeFileSync(uidFile, `${uids.join('\n')}\n`);
    // The curl loop's list holds each uid already percent-encoded, as a script would be handed it.
    const curlUids = uids.slice(0, options.curlSample);
    const curlFile = join(dir, 'curl-uids.txt');
    writeFileSync(curlFile, `${curlUids.map(encodeURIComponent).join('\n')}\n`);
    const curlScript = join(dir, 'curl-loop.sh');
    writeFileSync(curlScript, CURL_LOOP);
    return { sandbox, uids, dir, uidFile, curlFile, curlScript, curlCount: curlUids.length };
  },
  async measure(state) {
    const n = state.uids.length;
    // Which side goes first alternates from round to round, so a change of the machine's load between the two
    // runs of a pair does not always favour the same side.
    state.rounds = (state.rounds ?? 0) + 1;
    const pair = async (latencyMs) => {
      if (state.rounds % 2 === 1) return [await batchRun(state, latencyMs), await rawRun(state, latencyMs)];
      const raw = await rawRun(state, latencyMs);
      return [await batchRun(state, latencyMs), raw];
    };
    const [batchLoopback, rawLoopback] = await pair(0);
    const [batch50, raw50] = await pair(LATENCY_MS);
    const curl = await curlRun(state);
    // The curl loop's time for all N: its token, then N requests at the sample's pace.
    const curlMs = curl.tokenMs + (curl.loopMs / state.curlCount) * n;
    return {
      batchVsRawLoopback: rawLoopback / batchLoopback,
      batchVsRaw50ms: raw50 / batch50,
      batchVsCurl50ms: curlMs / batch50,
      batchLoopbackItemsPerS: n / (batchLoopback / 1000),
      rawLoopbackItemsPerS: n / (rawLoopback / 1000),
      batch50msItemsPerS: n / (batch50 / 1000),
      raw50msItemsPerS: n / (raw50 / 1000),
      curl50msItemsPerS: n / (curlMs / 1000),
    };
  },
};

async function prepare(sandbox, latencyMs) {
  await sandbox.reset();
  if (latencyMs > 0) await sandbox.setFaults({ latencyMs });
}

async function batchRun({ sandbox, uids, dir }, latencyMs) {
  await prepare(sandbox, latencyMs);
  return (await runCliBatch({ sandbox, work: dir, uids, concurrency: CONCURRENCY })).ms;
}

async function rawRun({ sandbox, uids, dir, uidFile }, latencyMs) {
  await prepare(sandbox, latencyMs);
  const env = { ...sandbox.env(dir), BENCH_URL: sandbox.url };
  const result = await runOk('the raw fetch loop', process.execPath, [join(root, 'scripts/bench/probes/raw-anonymise.mjs'), uidFile, String(CONCURRENCY)], { env });
  const { done } = JSON.parse(result.stdout);
  if (done !== uids.length) throw new Error(`the raw fetch loop anonymised ${done} of ${uids.length} users.`);
  return result.ms;
}

async function curlRun({ sandbox, dir, curlFile, curlScript, curlCount }) {
  await prepare(sandbox, LATENCY_MS);
  const env = { ...sandbox.env(dir), BENCH_URL: sandbox.url };
  const token = await runOk('curl (token)', 'bash', [curlScript, 'token'], { env });
  const loop = await runOk('the curl loop', 'bash', [curlScript, 'loop', curlFile, token.stdout.trim()], { env });
  const done = loop.stdout.split('\n').filter((status) => status === '200').length;
  if (done !== curlCount) throw new Error(`the curl loop anonymised ${done} of ${curlCount} users: ${loop.stdout.slice(0, 300)}`);
  return { tokenMs: token.ms, loopMs: loop.ms };
}

// What an operator without Privacy Desk would write: a token, then one curl per line of the list.
const CURL_LOOP = `#!/usr/bin/env bash
set -euo pipefail
if [ "$1" = token ]; then
  curl -sS -X POST "$BENCH_URL/oauth/token" -H 'Accept: application/json' \\
    --data-urlencode grant_type=client_credentials --data-urlencode "client_id=$PRIVACY_DESK_API_KEY" \\
    --data-urlencode "client_secret=$PRIVACY_DESK_API_SECRET" --data-urlencode scope=authentication \\
    | sed -E 's/.*"access_token":"([^"]+)".*/\\1/'
  exit
fi
token="$3"
while IFS= read -r uid; do
  curl -sS -o /dev/null -w '%{http_code}\\n' -X POST "$BENCH_URL/api/v1/users/$uid/anonymize" \\
    -H "Authorization: Bearer $token" -H 'Accept: application/json' -H 'Content-Type: application/json' -d '{}'
done < "$2"
`;

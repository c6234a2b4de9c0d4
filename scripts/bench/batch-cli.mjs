// The built CLI's batch anonymisation, as a user runs it: a new process, a fresh data folder, the list in a file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliBin } from './paths.mjs';
import { runTimed } from './processes.mjs';

// Read in the CLI's own process as it exits: its peak resident set, whatever the platform.
const MAX_RSS_PROBE = "process.on('exit', () => require('node:fs').writeSync(2, `\\nmaxRSS-kB ${process.resourceUsage().maxRSS}\\n`));\n";

/**
 * `privacy-desk batch anonymise FILE --separator none --yes "ANONYMISE N" --concurrency C --no-logout-first --json`
 * on `uids`. Without a logout first each item is one request, the same requests a raw loop sends; the
 * sessions' logout would double the requests on both sides alike. Resolves with the wall time (start-up
 * included), the JSON summary, and the peak RSS when `probeRss`. `interruptAfterMs` cancels a run that
 * takes longer (Ctrl-C: the items in flight finish), and it counts what was done by then.
 */
export async function runCliBatch({ sandbox, work, uids, concurrency = 16, probeRss = false, interruptAfterMs }) {
  const file = join(work, `uids-${uids.length}.txt`);
  writeFileSync(file, `${uids.join('\n')}\n`);
  const dataDir = mkdtempSync(join(work, 'data-'));
  const probe = join(work, 'max-rss.cjs');
  if (probeRss) writeFileSync(probe, MAX_RSS_PROBE);
  const args = [
    ...(probeRss ? ['--require', probe] : []),
    cliBin, 'batch', 'anonymise', file, '--separator', 'none', '--yes', `ANONYMISE ${uids.length}`,
    '--concurrency', String(concurrency), '--no-logout-first', '--json', ...sandbox.connection(),
  ];
  try {
    const result = await runTimed(process.execPath, args, { env: sandbox.env(dataDir), interruptAfterMs });
    let summary;
    try {
      summary = JSON.parse(result.stdout);
    } catch {
      throw new Error(`batch anonymise printed no JSON summary (exit ${result.code ?? result.signal}): ${result.stderr.slice(-1500)}`);
    }
    const done = summary.counts?.done ?? 0;
    if (!result.interrupted && (result.code !== 0 || done !== uids.length)) {
      throw new Error(`batch anonymise did not anonymise every user (exit ${result.code}, ${done} of ${uids.length} done): ${result.stdout.slice(0, 500)} ${result.stderr.slice(-1000)}`);
    }
    const maxRssKb = probeRss ? Number(/maxRSS-kB (\d+)/.exec(result.stderr)?.[1]) : undefined;
    return { ms: result.ms, done, summary, maxRssKb, interrupted: result.interrupted };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

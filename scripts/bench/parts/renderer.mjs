// The console's renderer: the size of what the window loads (dist/renderer, as built), then, in Chromium against
// the loopback web host, the first users page, the next page and the audit view over a large trail
// (scripts/bench/probes/renderer.mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from '../paths.mjs';
import { startProbe } from '../probe-process.mjs';

export const rendererPart = {
  name: 'renderer',
  async setup({ options, sandboxes, work, log }) {
    const bundle = bundleSize(join(root, 'dist', 'renderer'));
    const sandbox = await sandboxes.get(options.smallUsers);
    const probe = startProbe('renderer.mjs', { ...process.env, BENCH_WORK: work });
    log(`renderer: writing an audit trail of ${options.auditEntries} entries…`);
    const { url, apiKey, apiSecret, applicationName } = sandbox;
    await probe.ask('setup', { sandbox: { url, apiKey, apiSecret, applicationName }, entries: options.auditEntries });
    return { probe, sandbox, bundle };
  },
  async measure({ probe, sandbox, bundle }) {
    // Every user back, so the users pages are the same each round (a batch part anonymises them).
    await sandbox.reset();
    const page = await probe.ask('measure');
    return {
      rendererBundleKb: bundle.bytes / 1024,
      rendererBundleGzipKb: bundle.gzipBytes / 1024,
      rendererFirstUsersPageMs: page.firstPageMs,
      rendererPageSwitchMs: page.pageSwitchMs,
      auditView50kOpenMs: page.auditOpenMs,
      auditView50kLongestTaskMs: page.longestTaskMs,
      auditView50kLongTasksOver100ms: page.tasksOver100ms,
    };
  },
  async teardown({ probe }) {
    await probe.ask('close').catch(() => undefined);
    probe.stop();
  },
};

/** Every file of the built renderer (source maps aside: the window never loads them), as is and gzipped. */
function bundleSize(dir) {
  let bytes = 0;
  let gzipBytes = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const path = join(dir, name);
    if (!statSync(path).isFile() || name.endsWith('.map')) continue;
    const content = readFileSync(path);
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  if (bytes === 0) throw new Error(`${dir} is empty: run "npm run build" (or "npm run build:renderer") first.`);
  return { bytes, gzipBytes };
}

// `users reconcile` at scale: the built CLI compares an application list of N uids with a sandbox of N users (half
// of each in the other: N/2 orphans, N/2 missing, N/2 in both), a new process each time, and reports its own peak
// resident set as it exits. Writing the list and seeding the sandbox are not counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliBin } from './paths.mjs';
import { runOk } from './processes.mjs';

// Read in the CLI's own process as it exits: its peak resident set, whatever the platform.
const MAX_RSS_PROBE = "process.on('exit', () => require('node:fs').writeSync(2, `\\nmaxRSS-kB ${process.resourceUsage().maxRSS}\\n`));\n";

export const reconcilePart = {
  name: 'reconcile',
  async setup({ options, sandboxes, work }) {
    const users = options.reconcileUsers;
    const sandbox = await sandboxes.get(users);
    const onService = (await sandbox.uids()).filter((uid) => uid !== null);
    // Every other service uid, then as many the service never had: the list is as long as the service.
    const kept = onService.filter((_, index) => index % 2 === 0);
    const application = [...kept, ...Array.from({ length: users - kept.length }, (_, index) => `app-only-${index}`)];
    const dir = mkdtempSync(join(work, 'reconcile-'));
    const file = join(dir, 'application.txt');
    writeFileSync(file, `${application.join('\n')}\n`);
    const probe = join(dir, 'max-rss.cjs');
    writeFileSync(probe, MAX_RSS_PROBE);
    return { sandbox, users, dir, file, probe, expected: { orphans: onService.length - kept.length, missing: users - kept.length, inBoth: kept.length } };
  },
  async measure({ sandbox, users, dir, file, probe, expected }) {
    // The memory part erases this sandbox's users (it shares the 100,000-user sandbox): every user back first.
    await sandbox.reset();
    const dataDir = mkdtempSync(join(dir, 'data-'));
    try {
      const result = await runOk('users reconcile', process.execPath, ['--require', probe, cliBin, 'users', 'reconcile', file, '--separator', 'none', '--json', ...sandbox.connection()], { env: sandbox.env(dataDir) });
      const { counts } = JSON.parse(result.stdout);
      for (const set of ['orphans', 'missing', 'inBoth']) {
        if (counts[set] !== expected[set]) throw new Error(`users reconcile found ${counts[set]} ${set} among ${users} users, not ${expected[set]}.`);
      }
      const maxRssKb = Number(/maxRSS-kB (\d+)/.exec(result.stderr)?.[1]);
      return { reconcile100kMs: result.ms, reconcile100kPeakRssMb: maxRssKb / 1024 };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

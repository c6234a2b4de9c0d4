// Peak memory of a large batch: the built CLI anonymises every uid of a 100,000-user sandbox (loopback,
// concurrency 16) and reports its own peak resident set as it exits. Run once, after the rounds: it takes
// minutes, and memory does not vary with the machine's load as times do.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { runCliBatch } from '../batch-cli.mjs';

export const memoryPart = {
  name: 'memory',
  once: true,
  async setup({ options, sandboxes, work }) {
    const sandbox = await sandboxes.get(options.memoryItems);
    const uids = (await sandbox.uids()).slice(0, options.memoryItems);
    return { sandbox, uids, dir: mkdtempSync(join(work, 'memory-')) };
  },
  async measure({ sandbox, uids, dir }) {
    await sandbox.reset();
    const run = await runCliBatch({ sandbox, work: dir, uids, probeRss: true });
    return { batch100kPeakRssMb: run.maxRssKb / 1024, batch100kItemsPerS: uids.length / (run.ms / 1000) };
  },
};

// `users find` over a large service: each run a new process, so each time is the whole walk (every page, a few
// at once) plus the first search. Seeding the sandbox is not counted.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cliBin } from '../paths.mjs';
import { runOk } from '../processes.mjs';

export const findPart = {
  name: 'find',
  async setup({ options, sandboxes, work }) {
    return { sandbox: await sandboxes.get(options.findUsers), users: options.findUsers, work };
  },
  async measure({ sandbox, users, work }) {
    const dataDir = mkdtempSync(join(work, 'find-'));
    try {
      const result = await runOk('users find', process.execPath, [cliBin, 'users', 'find', 'emilie', '--json', ...sandbox.connection()], { env: sandbox.env(dataDir) });
      const facts = JSON.parse(result.stdout);
      if (facts.usersSearched !== users) throw new Error(`users find searched ${facts.usersSearched} users, not ${users}.`);
      return { usersFind100kMs: result.ms };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

// CLI start-up: `privacy-desk --version` (the built bundle, as the installed command runs it) next to a bare
// `node -e 0`, alternately, several times a round, so each round's ratio compares like moments.
import { median } from '../median.mjs';
import { cliBin } from '../paths.mjs';
import { runOk } from '../processes.mjs';

export const startPart = {
  name: 'start',
  setup: ({ options }) => ({ runs: options.startRuns }),
  async measure({ runs }) {
    const node = [];
    const cli = [];
    for (let run = 0; run < runs; run += 1) {
      node.push((await runOk('node -e 0', process.execPath, ['-e', '0'])).ms);
      cli.push((await runOk('privacy-desk --version', process.execPath, [cliBin, '--version'])).ms);
    }
    const nodeStartMs = median(node);
    const cliStartMs = median(cli);
    return { cliStartRatio: cliStartMs / nodeStartMs, cliStartMs, nodeStartMs };
  },
};

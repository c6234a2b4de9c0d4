// The core's service client in process: its overhead over raw `fetch` for list calls, and single-flight tokens.
import { startProbe } from '../probe-process.mjs';

export const corePart = {
  name: 'core',
  async setup({ options, sandboxes, work }) {
    const sandbox = await sandboxes.get(options.smallUsers);
    const probe = startProbe('core-client.mjs', { ...sandbox.env(''), BENCH_URL: sandbox.url, BENCH_APP: sandbox.applicationName, BENCH_WORK: work });
    return { probe, sandbox, options };
  },
  async measure({ probe, sandbox, options }) {
    await sandbox.reset();
    const { coreMs, rawMs, calls } = await probe.ask('overhead', { calls: options.clientCalls });
    const tokens = await probe.ask('singleFlight', { calls: options.tokenCalls });
    return {
      clientOverheadRatio: coreMs / rawMs,
      clientCoreMsPerCall: coreMs / calls,
      clientRawMsPerCall: rawMs / calls,
      tokenRequestsPerScope: Math.max(tokens.authentication, tokens.public),
    };
  },
  teardown: ({ probe }) => probe.stop(),
};

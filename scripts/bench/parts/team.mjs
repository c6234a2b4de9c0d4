// Team mode on PostgreSQL (scripts/bench/probes/team-store.mjs): 8 writer processes × 1,000 acts into one chain, the
// chain verified; then a 1,000,000-entry trail read a page at a time as the console reads it. Run once, after the
// rounds: it fills a million rows, and what it shows (throughput of one chain, pages served from the indexes) is not
// a ratio the machine's load would blur. Where no PostgreSQL server can be started, it says why and measures nothing.
import { startProbe } from '../probe-process.mjs';

export const teamPart = {
  name: 'team',
  once: true,
  async setup({ options, log }) {
    const probe = startProbe('team-store.mjs');
    const { skip } = await probe.ask('setup');
    if (skip) log(`team: skipped, ${skip}`);
    return { probe, skip, options };
  },
  async measure({ probe, skip, options }) {
    if (skip) return {};
    const writers = await probe.ask('writers', { writers: 8, acts: options.teamActs });
    const paging = await probe.ask('paging', { entries: options.teamEntries });
    return {
      teamAppendEntriesPerS: writers.entriesPerS,
      teamVerify16kMs: writers.verifyMs,
      teamChainVerified: writers.verified,
      teamChainGaps: writers.gaps,
      teamChainForks: writers.forks,
      team1MFillS: paging.fillS,
      team1MFirstPageMs: paging.firstMs,
      team1MUidPageMs: paging.uidMs,
      team1MReferencePageMs: paging.referenceMs,
      team1MDayPageMs: paging.dayMs,
      team1MDeepPageMs: paging.deepMs,
      team1MScrollPageMs: paging.scrollMs,
      team1MPagingRssGrowthMb: paging.rssGrowthMb,
      team1MConsoleOpenMs: paging.consoleOpenMs,
      team1MConsoleNextPageMs: paging.consoleNextPageMs,
      team1MConsoleFilterMs: paging.consoleFilterMs,
      team1MConsoleLongestTaskMs: paging.consoleLongestTaskMs,
    };
  },
  async teardown({ probe }) {
    await probe.ask('teardown').catch(() => undefined);
    probe.stop();
  },
};

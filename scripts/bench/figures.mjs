// Every figure the suite writes to bench/results.json: what it is, its unit and its goal (the goals set for batch pace, capacity, memory and the console, and
// the goals the earlier benchmarks set). A figure without a goal is measured to be watched, not judged.
// `optional`: written only when the sandbox offers what it needs (the fixed-window rate limiter).

const figure = (part, label, unit, goal, extra = {}) => ({ part, label, unit, goal, ...extra });
const atMost = (value) => ({ op: '<=', value });
const atLeast = (value) => ({ op: '>=', value });
const below = (value) => ({ op: '<', value });

export const PACE_LIMITS = [30, 100];
export const PACE_RETRY_AFTER = { Seconds: 'seconds', None: 'none' };
export const PACE_WINDOWS = { '': 'sliding', Fixed: 'fixed' };

/** The key of a pace figure: pace30SecondsRatio, pace100NoneFixed429Share… */
export const paceKey = (limit, retryAfter, window, what) => `pace${limit}${retryAfter}${window}${what}`;

function paceFigures() {
  const figures = {};
  for (const limit of PACE_LIMITS) {
    for (const [retryName, retryAfter] of Object.entries(PACE_RETRY_AFTER)) {
      for (const [windowName, window] of Object.entries(PACE_WINDOWS)) {
        const under = `limit ${limit}/s, Retry-After ${retryAfter === 'none' ? 'absent' : 'in seconds'}, ${window} window`;
        const optional = window === 'fixed';
        figures[paceKey(limit, retryName, windowName, 'Ratio')] = figure('pace', `batch rate ÷ the limit (${under})`, '×', atLeast(0.9), { optional });
        figures[paceKey(limit, retryName, windowName, '429Share')] = figure('pace', `share of requests answered 429 (${under})`, 'share', atMost(0.1), { optional });
      }
    }
  }
  return figures;
}

export const FIGURES = {
  cliStartRatio: figure('start', '`privacy-desk --version` ÷ bare `node -e 0`', '×', atMost(3)),
  cliStartMs: figure('start', '`privacy-desk --version`', 'ms'),
  nodeStartMs: figure('start', '`node -e 0`', 'ms'),

  clientOverheadRatio: figure('core', 'list calls through the core (`Desk.listUsers`, as `users list`) ÷ raw `fetch` of the same URL', '×', atMost(1.1)),
  clientCoreMsPerCall: figure('core', 'one list call through the core', 'ms'),
  clientRawMsPerCall: figure('core', 'one list call, raw `fetch`', 'ms'),
  tokenRequestsPerScope: figure('core', 'token requests per scope for concurrent calls on a cold token cache (the most of any round)', 'count', { op: '=', value: 1 }, { aggregate: 'max' }),

  batchVsRawLoopback: figure('capacity', 'batch ÷ raw `fetch` loop, same requests at concurrency 16, loopback (items/s)', '×', atLeast(0.8)),
  batchVsRaw50ms: figure('capacity', 'batch ÷ raw `fetch` loop, same requests at concurrency 16, 50 ms latency', '×', atLeast(0.9)),
  batchVsCurl50ms: figure('capacity', 'batch ÷ sequential `curl` loop (one process a request), 50 ms latency', '×', atLeast(15)),
  batchLoopbackItemsPerS: figure('capacity', 'batch, loopback', 'items/s'),
  rawLoopbackItemsPerS: figure('capacity', 'raw `fetch` loop, loopback', 'items/s'),
  batch50msItemsPerS: figure('capacity', 'batch, 50 ms latency', 'items/s'),
  raw50msItemsPerS: figure('capacity', 'raw `fetch` loop, 50 ms latency', 'items/s'),
  curl50msItemsPerS: figure('capacity', '`curl` loop, 50 ms latency', 'items/s'),

  ...paceFigures(),
  paceRunsCut: figure('pace', 'pace runs cut at 2.5 times the time the limit allows (their rate counted until the cut; the most of any round)', 'count', undefined, { aggregate: 'max' }),

  usersFind100kMs: figure('find', '`users find emilie` over 100,000 users (walk + first search), seconds not minutes', 'ms', below(60_000)),

  rendererBundleKb: figure('renderer', 'renderer bundle (dist/renderer, every file)', 'KB'),
  rendererBundleGzipKb: figure('renderer', 'renderer bundle, gzipped', 'KB'),
  rendererFirstUsersPageMs: figure('renderer', 'Chromium: open the console until the first users page is drawn', 'ms'),
  rendererPageSwitchMs: figure('renderer', 'Chromium: next users page drawn after the click', 'ms'),
  auditView50kOpenMs: figure('renderer', 'Chromium: audit view of 50,000 entries drawn after the click', 'ms'),
  auditView50kLongestTaskMs: figure('renderer', 'Chromium: longest task while opening and scrolling that audit view', 'ms', atMost(100)),
  auditView50kLongTasksOver100ms: figure('renderer', 'Chromium: tasks over 100 ms while opening and scrolling that audit view', 'count'),

  batch100kPeakRssMb: figure('memory', 'peak RSS of the CLI running a 100,000-uid batch anonymisation', 'MB', below(200)),
  batch100kItemsPerS: figure('memory', 'that batch, loopback, concurrency 16', 'items/s'),

  reconcile100kMs: figure('reconcile', '`users reconcile` of 100,000 application uids against 100,000 users (read the list, walk every page, compare), seconds not minutes', 'ms', below(30_000)),
  reconcile100kPeakRssMb: figure('reconcile', 'peak RSS of the CLI during that reconciliation (the walk alone, as `users find`, peaks higher)', 'MB', below(250)),

  // Written only where a PostgreSQL server can be started (the part says why when it cannot).
  teamAppendEntriesPerS: figure('team', '8 writer processes × 1,000 acts (attempted + outcome, each a committed transaction) into one chain, fsync on', 'entries/s', undefined, { optional: true }),
  teamVerify16kMs: figure('team', '`audit verify` of those 16,000 entries from the database', 'ms', undefined, { optional: true }),
  teamChainVerified: figure('team', 'that chain verified (1: yes)', 'count', { op: '=', value: 1 }, { optional: true }),
  teamChainGaps: figure('team', 'sequence numbers missing from that chain', 'count', { op: '=', value: 0 }, { optional: true, aggregate: 'max' }),
  teamChainForks: figure('team', 'entries whose prevHash is not the hash of the entry before (forks)', 'count', { op: '=', value: 0 }, { optional: true, aggregate: 'max' }),
  team1MFillS: figure('team', 'a 1,000,000-entry team trail made by the server (generate_series, every index kept)', 's', undefined, { optional: true }),
  team1MFirstPageMs: figure('team', 'its first page of 100, newest first, with its count (console, team mode)', 'ms', atMost(100), { optional: true }),
  team1MUidPageMs: figure('team', 'its first page filtered by a uid', 'ms', atMost(100), { optional: true }),
  team1MReferencePageMs: figure('team', 'its first page filtered by a reference, any case', 'ms', atMost(100), { optional: true }),
  team1MDayPageMs: figure('team', 'its first page filtered to one day (2,880 entries)', 'ms', atMost(100), { optional: true }),
  team1MDeepPageMs: figure('team', 'a page 999,000 entries deep (keyset cursor)', 'ms', atMost(100), { optional: true }),
  team1MScrollPageMs: figure('team', 'each of 50 pages read one after another, as the console scrolls', 'ms', atMost(100), { optional: true }),
  team1MPagingRssGrowthMb: figure('team', 'resident memory grown by reading those pages (nothing loaded whole)', 'MB', undefined, { optional: true }),
  team1MConsoleOpenMs: figure('team', 'Chromium: the audit view on that team trail drawn after the click (web host in team mode)', 'ms', undefined, { optional: true }),
  team1MConsoleNextPageMs: figure('team', 'Chromium: the next page drawn after a scroll to the last rows read', 'ms', undefined, { optional: true }),
  team1MConsoleFilterMs: figure('team', 'Chromium: a uid typed until its entries are drawn', 'ms', undefined, { optional: true }),
  team1MConsoleLongestTaskMs: figure('team', 'Chromium: longest task over those three', 'ms', atMost(100), { optional: true }),
};

/** 'met', 'missed', or undefined for a figure without a goal. */
export function verdict(key, value) {
  const goal = FIGURES[key]?.goal;
  if (!goal) return undefined;
  const ok = { '<=': value <= goal.value, '>=': value >= goal.value, '<': value < goal.value, '=': value === goal.value }[goal.op];
  return ok ? 'met' : 'missed';
}

export function goalText(key) {
  const goal = FIGURES[key]?.goal;
  if (!goal) return '—';
  const op = { '<=': '≤', '>=': '≥', '<': '<', '=': '=' }[goal.op];
  return `${op} ${formatValue(key, goal.value)}`;
}

export function formatValue(key, value) {
  const unit = FIGURES[key]?.unit;
  if (unit === 'share') return `${(value * 100).toFixed(1)} %`;
  if (unit === '×') return `${value.toFixed(2)}×`;
  if (unit === 'count') return String(Math.round(value));
  if (unit === 'ms' && value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

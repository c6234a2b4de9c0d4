import { describe, expect, it } from 'vitest';
import { createSendPacer, type SendPacer } from './send-pacer';

/**
 * Virtual time: a sleep is queued; once every task is waiting (nothing left to run at once), the
 * clock jumps to the earliest wake-up. Nothing here waits on the wall clock.
 */
function virtualClock() {
  let clock = 0;
  let ticking = false;
  const sleepers: { wakeAt: number; wake: () => void }[] = [];
  const tick = () => {
    ticking = false;
    if (sleepers.length === 0) return;
    sleepers.sort((a, b) => a.wakeAt - b.wakeAt);
    clock = Math.max(clock, (sleepers[0] as (typeof sleepers)[number]).wakeAt);
    while (sleepers.length > 0 && (sleepers[0] as (typeof sleepers)[number]).wakeAt <= clock) sleepers.shift()?.wake();
    schedule();
  };
  const schedule = () => {
    if (ticking) return;
    ticking = true;
    setImmediate(tick);
  };
  return {
    now: () => clock,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        sleepers.push({ wakeAt: clock + Math.max(0, ms), wake: resolve });
        schedule();
      }),
  };
}

type Verdict = { waitMs: number } | null;

/** The sandbox's limiter: more than `limit` requests in the last second are refused. */
function slidingWindow(limit: number) {
  let accepted: number[] = [];
  return (at: number): Verdict => {
    accepted = accepted.filter((t) => t > at - 1000);
    if (accepted.length < limit) {
      accepted.push(at);
      return null;
    }
    return { waitMs: (accepted[0] as number) + 1000 - at };
  };
}

/** A counter per calendar second (rack-attack's kind): at most `limit` requests in each. */
function fixedWindow(limit: number) {
  let windowStart = -1;
  let count = 0;
  return (at: number): Verdict => {
    const start = Math.floor(at / 1000) * 1000;
    if (start !== windowStart) {
      windowStart = start;
      count = 0;
    }
    if (count < limit) {
      count += 1;
      return null;
    }
    return { waitMs: start + 1000 - at };
  };
}

interface Simulation {
  items: number;
  concurrency: number;
  latencyMs: number;
  limiter: (at: number) => Verdict;
  retryAfter: 'seconds' | 'none';
}

/** How long each request's durable write takes, in turn: mostly a few ms, sometimes a stall of a third of a second. */
const writeDelays = [2, 5, 3, 8, 2, 4, 300, 3, 6, 2, 150, 4, 3];

/** `concurrency` senders share one pacer, as a run's do; each item is sent until it passes the limiter. */
async function simulate({ items, concurrency, latencyMs, limiter, retryAfter }: Simulation) {
  const time = virtualClock();
  const pacer = createSendPacer(time);
  let left = items;
  let requests = 0;
  let refused = 0;
  const sender = async () => {
    while (left > 0) {
      left -= 1;
      for (;;) {
        const sentAt = await pacer.turn();
        // Its records are written before it leaves: a write takes a few ms, and now and then stalls (a busy disk).
        await time.sleep(writeDelays[requests % writeDelays.length] as number);
        await pacer.slot();
        requests += 1;
        // Half the latency on the way there, half back: the limiter counts the arrival.
        await time.sleep(latencyMs / 2);
        const verdict = limiter(time.now());
        await time.sleep(latencyMs / 2);
        if (verdict === null) {
          pacer.answered();
          break;
        }
        refused += 1;
        pacer.rateLimited(sentAt, retryAfter === 'seconds' ? Math.max(1, Math.ceil(verdict.waitMs / 1000)) : undefined);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
  return { ratePerSecond: (items / time.now()) * 1000, refusedShare: refused / requests, pacer };
}

describe('the send pacer under a rate limit', () => {
  const cases = [30, 100].flatMap((limit) =>
    (['sliding', 'fixed'] as const).flatMap((kind) => (['seconds', 'none'] as const).flatMap((retryAfter) => [1, 50].map((latencyMs) => ({ limit, kind, retryAfter, latencyMs })))),
  );
  it.each(cases)('$limit/s, $kind window, Retry-After $retryAfter, $latencyMs ms: 2,000 items at ≥ 0.9 of the limit, ≤ 10 % answered 429', async ({ limit, kind, retryAfter, latencyMs }) => {
    const limiter = kind === 'sliding' ? slidingWindow(limit) : fixedWindow(limit);
    const run = await simulate({ items: 2_000, concurrency: 16, latencyMs, limiter, retryAfter });
    expect(run.ratePerSecond).toBeGreaterThanOrEqual(0.9 * limit);
    expect(run.ratePerSecond).toBeLessThanOrEqual(limit * 1.01 + 2000 / 2000);
    expect(run.refusedShare).toBeLessThanOrEqual(0.1);
  });

  it('a pace learned from a window another client had mostly used is found too low and climbs back within a minute or two', async () => {
    let firstWindow = true;
    const shared = fixedWindow(30);
    // The run starts with 26 of the first second's 30 already taken by someone else.
    const limiter = (at: number) => {
      if (firstWindow) for (let i = 0; i < 26; i += 1) shared(at);
      firstWindow = false;
      return shared(at);
    };
    const run = await simulate({ items: 4_000, concurrency: 16, latencyMs: 20, limiter, retryAfter: 'seconds' });
    expect(run.pacer.ratePerSecond()).toBeGreaterThan(0.9 * 30);
    // Over the whole run (a few minutes), a steady 1 % a second would have averaged under 14 a second.
    expect(run.ratePerSecond).toBeGreaterThan(20);
    expect(run.refusedShare).toBeLessThanOrEqual(0.1);
  });

  it('finds a limit it has never been told, and keeps under it', async () => {
    const run = await simulate({ items: 3_000, concurrency: 16, latencyMs: 20, limiter: slidingWindow(60), retryAfter: 'seconds' });
    expect(run.pacer.ratePerSecond()).toBeGreaterThan(50);
    expect(run.pacer.ratePerSecond()).toBeLessThan(60.5);
  });
});

describe('the send pacer, one episode at a time', () => {
  function pacerAt(clock: { at: number }): SendPacer {
    return createSendPacer({ now: () => clock.at, sleep: async (ms) => void (clock.at += ms) });
  }

  it('lowers the pace once for a burst of 429s, not once per request in flight', async () => {
    const clock = { at: 10_000 };
    const pacer = pacerAt(clock);
    for (let i = 0; i < 100; i += 1) pacer.answered();
    const sentAt = await Promise.all(Array.from({ length: 16 }, () => pacer.turn()));
    await Promise.all(sentAt.map(() => pacer.slot()));
    for (const at of sentAt) pacer.rateLimited(at, 1);
    expect(pacer.ratePerSecond()).toBeCloseTo(97, 5);
    expect(pacer.holdSeconds()).toBe(1);
  });

  it('a 429 for a request let go after the hold opens a new episode and lowers the pace again', async () => {
    const clock = { at: 10_000 };
    const pacer = pacerAt(clock);
    for (let i = 0; i < 100; i += 1) pacer.answered();
    pacer.rateLimited(await pacer.turn(), 1);
    const first = pacer.ratePerSecond() as number;
    const after = await pacer.turn();
    expect(after).toBeGreaterThanOrEqual(11_000); // held for the Retry-After
    pacer.rateLimited(after, 1);
    expect(pacer.ratePerSecond()).toBeLessThan(first);
  });

  it('holds everyone for Retry-After and then lets requests go one interval apart, never in a burst', async () => {
    const clock = { at: 0 };
    const pacer = pacerAt(clock);
    for (let i = 0; i < 20; i += 1) pacer.answered();
    pacer.rateLimited(await pacer.turn(), 3);
    const sentAt: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      sentAt.push(await pacer.turn());
      await pacer.slot();
      sentAt[i] = clock.at;
    }
    expect(sentAt[0]).toBeGreaterThanOrEqual(3_000);
    const gaps = sentAt.slice(1).map((at, i) => at - (sentAt[i] as number));
    expect(gaps.every((gap) => gap >= 1000 / (20 * 0.97) - 1e-9)).toBe(true);
  });

  it('without Retry-After it holds a second; before any answer it learns nothing and only holds', async () => {
    const clock = { at: 0 };
    const pacer = pacerAt(clock);
    pacer.rateLimited(await pacer.turn(), undefined);
    expect(pacer.holdSeconds()).toBe(1);
    expect(pacer.ratePerSecond()).toBeUndefined();
  });

  it('after 30 s without a 429 the pace creeps up', async () => {
    const clock = { at: 0 };
    const pacer = pacerAt(clock);
    for (let i = 0; i < 40; i += 1) pacer.answered();
    pacer.rateLimited(await pacer.turn(), 1);
    const learned = pacer.ratePerSecond() as number;
    clock.at += 29_000;
    await pacer.slot();
    expect(pacer.ratePerSecond()).toBe(learned);
    clock.at += 10_000;
    await pacer.slot();
    expect(pacer.ratePerSecond()).toBeGreaterThan(learned);
  });
});

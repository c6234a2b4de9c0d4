import { afterEach, describe, expect, it, vi } from 'vitest';
import { PURGE_EVERY_MS, scheduleRegisterPurge } from './register-purge';

afterEach(() => vi.useRealTimers());

describe('the register purge schedule', () => {
  it('purges at once, then daily, until stopped; a failure is said and tried again', async () => {
    vi.useFakeTimers();
    const purgeDue = vi.fn().mockRejectedValueOnce(new Error('register locked')).mockResolvedValue([]);
    const log = vi.fn();
    const stop = scheduleRegisterPurge({ requests: { purgeDue } } as never, log);
    expect(purgeDue).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('register locked'));
    await vi.advanceTimersByTimeAsync(PURGE_EVERY_MS);
    expect(purgeDue).toHaveBeenCalledTimes(2);
    await stop();
    await vi.advanceTimersByTimeAsync(PURGE_EVERY_MS * 3);
    expect(purgeDue).toHaveBeenCalledTimes(2);
  });

  it('stopping waits for the round under way: the app does not close while the purge writes in the data folder', async () => {
    let finish: () => void = () => undefined;
    const purgeDue = vi.fn(() => new Promise<string[]>((resolve) => (finish = () => resolve([]))));
    const stop = scheduleRegisterPurge({ requests: { purgeDue } } as never, vi.fn());
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });
});

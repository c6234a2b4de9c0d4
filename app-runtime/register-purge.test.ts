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
    stop();
    await vi.advanceTimersByTimeAsync(PURGE_EVERY_MS * 3);
    expect(purgeDue).toHaveBeenCalledTimes(2);
  });
});

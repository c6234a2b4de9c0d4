import { act, fireEvent, within } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Clicks the erasure dialog's Confirm and lets its 5-second countdown run a second at a time on fake timers, then
 * the answer come in, then gives real timers back (as the dialog's own tests do).
 */
export async function confirmThroughCountdown(dialog: HTMLElement): Promise<void> {
  vi.useFakeTimers();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  for (let i = 0; i < 10; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(i < 5 ? 1000 : 50);
    });
  }
  vi.useRealTimers();
}

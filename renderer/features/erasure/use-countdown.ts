import { useEffect, useRef, useState } from 'react';

export const ERASURE_COUNTDOWN_SECONDS = 5;

/**
 * A visible countdown that runs `onElapsed` exactly once when it reaches zero.
 * The call happens in a timer callback, never in an effect body, so a
 * re-render (or React's strict-mode double effects) can never send twice.
 */
export function useCountdown(onElapsed: () => void, seconds = ERASURE_COUNTDOWN_SECONDS) {
  const [remaining, setRemaining] = useState<number | null>(null);
  const elapsedRef = useRef(onElapsed);
  useEffect(() => {
    elapsedRef.current = onElapsed;
  });

  useEffect(() => {
    if (remaining === null) return;
    const timer = setTimeout(() => {
      if (remaining <= 1) {
        setRemaining(null);
        elapsedRef.current();
      } else {
        setRemaining(remaining - 1);
      }
    }, 1000);
    return () => clearTimeout(timer);
  }, [remaining]);

  return {
    remaining,
    running: remaining !== null,
    start: () => setRemaining(seconds),
    cancel: () => setRemaining(null),
  };
}

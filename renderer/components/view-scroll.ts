import { useEffect } from 'react';

const SCROLL_KEYS = new Set(['PageDown', 'PageUp', 'Home', 'End', 'ArrowDown', 'ArrowUp', ' ']);

/**
 * The view scrolls in a box of its own (main.app-main, between the chrome and the docked notices), not the page.
 * With nothing focused, the keys that scroll a page (Page Down, Space, End…) would reach no scroll box: such a
 * key moves focus to the view first, and the browser then scrolls the view as it would have scrolled the page.
 */
export function useScrollKeysReachTheView(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!SCROLL_KEYS.has(event.key) || (event.target !== document.body && event.target !== document.documentElement)) return;
      document.querySelector<HTMLElement>('main.app-main')?.focus({ preventScroll: true });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

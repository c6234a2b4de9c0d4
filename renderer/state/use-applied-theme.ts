import { useEffect } from 'react';
import type { ThemeOverride } from './ui-store';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Puts the resolved theme on <html data-theme>, following the OS while the
 * choice is "system" (and when the OS switches), so the stylesheet needs one
 * set of dark tokens only.
 */
export function useAppliedTheme(theme: ThemeOverride): void {
  useEffect(() => {
    const root = document.documentElement;
    if (theme !== 'system') {
      root.dataset.theme = theme;
      return;
    }
    const query = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
    const apply = () => {
      root.dataset.theme = query?.matches ? 'dark' : 'light';
    };
    apply();
    query?.addEventListener('change', apply);
    return () => query?.removeEventListener('change', apply);
  }, [theme]);
}

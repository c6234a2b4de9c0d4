import { createElement, forwardRef, useEffect, type ElementType, type ReactNode } from 'react';

/**
 * Stand-in for `react-remove-scroll` (used by Radix Dialog), wired in by an
 * alias in vite.config.ts. The original injects <style> elements at run time,
 * which our CSP (style-src 'self', no 'unsafe-inline') blocks with a console
 * error on every dialog. This one only marks <body>; styles/dialogs.css does
 * the scroll locking. Focus trapping and aria-hidden are Radix's own and stay.
 */
interface RemoveScrollProps {
  as?: ElementType;
  children?: ReactNode;
  enabled?: boolean;
  allowPinchZoom?: boolean;
  shards?: unknown;
  [prop: string]: unknown;
}

const LOCK_ATTRIBUTE = 'data-scroll-locked';

export const RemoveScroll = Object.assign(
  forwardRef<HTMLElement, RemoveScrollProps>(function RemoveScroll(props, ref) {
    const { as = 'div', children, enabled = true, allowPinchZoom: _allowPinchZoom, shards: _shards, ...rest } = props;
    useEffect(() => {
      if (!enabled) return;
      const body = document.body;
      body.setAttribute(LOCK_ATTRIBUTE, String(Number(body.getAttribute(LOCK_ATTRIBUTE) ?? 0) + 1));
      return () => {
        const remaining = Number(body.getAttribute(LOCK_ATTRIBUTE) ?? 1) - 1;
        if (remaining > 0) body.setAttribute(LOCK_ATTRIBUTE, String(remaining));
        else body.removeAttribute(LOCK_ATTRIBUTE);
      };
    }, [enabled]);
    // `as` is Radix's Slot (or a tag): it merges our props and ref onto its child.
    return createElement(as as string, { ...rest, ref } as Record<string, unknown>, children as ReactNode);
  }),
  { classNames: { fullWidth: 'width-before-scroll-bar', zeroRight: 'right-scroll-bar-position' } },
);

export default RemoveScroll;

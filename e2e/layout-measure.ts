import type { Locator, Page } from '@playwright/test';

/**
 * Measures for layout.spec.ts, taken in the page: what the kept notices lie over, and which texts a table
 * does not draw whole. Geometry only, never timings.
 */

/**
 * Scrolls the view to a fraction of its range (0 the top, 1 the bottom), whichever box scrolls it: the page
 * itself or the view's own scroll box. Resolves once the page has drawn a frame at that position.
 */
export async function scrollViewTo(page: Page, fraction: number): Promise<void> {
  await page.evaluate(async (share) => {
    const root = document.scrollingElement;
    for (const box of [document.querySelector('main'), root]) {
      if (!box) continue;
      const range = box.scrollHeight - box.clientHeight;
      if (range <= 1 || (box !== root && !/auto|scroll/.test(getComputedStyle(box).overflowY))) continue;
      box.scrollTop = Math.round(range * share);
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, fraction);
}

/**
 * Every visible interactive element (button, link, field, tab…) and every table row, outside the notices,
 * whose drawn part shares some area with the notices' drawn box: what the notices lie over. An element is
 * drawn where the window shows it: its box cut by the window and by every box around it that clips.
 */
export async function coveredByNotices(notices: Locator): Promise<string[]> {
  return notices.evaluate((dock) => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const cut = (a: Box, b: Box): Box => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
    const area = (box: Box) => Math.max(0, box.right - box.left) * Math.max(0, box.bottom - box.top);
    const drawn = (element: Element): Box => {
      let box = cut(element.getBoundingClientRect(), { left: 0, top: 0, right: innerWidth, bottom: innerHeight });
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        const frame = parent.getBoundingClientRect();
        if (style.overflowX !== 'visible') box = { ...box, left: Math.max(box.left, frame.left), right: Math.min(box.right, frame.right) };
        if (style.overflowY !== 'visible') box = { ...box, top: Math.max(box.top, frame.top), bottom: Math.min(box.bottom, frame.bottom) };
      }
      return box;
    };
    const dockBox = drawn(dock);
    if (area(dockBox) < 1) return [];
    const interactive = 'a[href], button, input, select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="checkbox"], [role="row"], [tabindex]:not([tabindex="-1"]), tr';
    return [...document.querySelectorAll(interactive)]
      .filter((element) => !dock.contains(element) && element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden')
      .filter((element) => area(cut(drawn(element), dockBox)) > 1)
      .map((element) => `${element.tagName.toLowerCase()} “${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)}”`);
  });
}

/**
 * The texts inside the root that the window does not draw whole: cut by a box that hides its overflow (an
 * ellipsis, a clipped end), or spilling out of their row. Text in a box that scrolls sideways counts as drawn
 * (the operator scrolls it) as long as that box itself is drawn whole. `allowed`: selectors of elements whose
 * text may be cut on purpose (a reference clipped in its middle, which keeps both ends).
 */
export async function cutTexts(root: Locator, allowed: readonly string[] = []): Promise<string[]> {
  return root.evaluate((element, exceptions) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!;
      const text = node.textContent ?? '';
      if (!text.trim() || parent.getClientRects().length === 0) continue;
      const style = getComputedStyle(parent);
      // Drawn text only: not a hidden tip, not the copy kept for screen readers (clipped to nothing).
      if (style.visibility === 'hidden' || parent.closest('.visually-hidden') || style.clip !== 'auto') continue;
      if (exceptions.some((selector) => parent.closest(selector))) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      let rects = [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => ({ left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom }));
      const row = parent.closest('[role="row"], tr');
      const rowBox = row?.getBoundingClientRect();
      let whole = !rowBox || rects.every((rect) => rect.top >= rowBox.top - 0.5 && rect.bottom <= rowBox.bottom + 0.5);
      for (let box: Element | null = parent; whole && box && box !== element.parentElement; box = box.parentElement) {
        const boxStyle = getComputedStyle(box);
        if (boxStyle.overflowX === 'visible' && boxStyle.overflowY === 'visible') continue;
        const frame = box.getBoundingClientRect();
        if (/auto|scroll/.test(boxStyle.overflowX) && boxStyle.textOverflow !== 'ellipsis') {
          // A box that scrolls: what lies beyond its edges is reached by scrolling; the box itself must be drawn.
          rects = rects.map((rect) => ({ ...rect, left: Math.max(rect.left, frame.left), right: Math.min(rect.right, frame.right), top: Math.max(rect.top, frame.top), bottom: Math.min(rect.bottom, frame.bottom) }));
          continue;
        }
        const clipsX = boxStyle.overflowX !== 'visible';
        const clipsY = boxStyle.overflowY !== 'visible';
        whole = rects.every((rect) => (!clipsX || (rect.left >= frame.left - 0.5 && rect.right <= frame.right + 0.5)) && (!clipsY || (rect.top >= frame.top - 0.5 && rect.bottom <= frame.bottom + 0.5)));
      }
      if (!whole) found.push(text.trim().slice(0, 60));
    }
    return found;
  }, allowed);
}

/** Each uid drawn in the root (a VisibleUid box, not a name or e-mail drawn by VisibleText) that takes more than one line: a uid never breaks inside itself. */
export async function brokenUids(root: Locator): Promise<string[]> {
  return root.evaluate((element) =>
    [...element.querySelectorAll('[data-uid-box]:not(.visible-text)')]
      .filter((box) => box.getClientRects().length > 0)
      .filter((box) => {
        const range = document.createRange();
        range.selectNodeContents(box);
        return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top / 4))).size > 1;
      })
      .map((box) => (box.textContent ?? '').slice(0, 60)),
  );
}

/** How far the element scrolls sideways, in CSS pixels (0: its content fits its width). */
export async function sidewaysScroll(element: Locator): Promise<number> {
  return element.evaluate((box) => Math.max(0, box.scrollWidth - box.clientWidth));
}

/**
 * Each box inside the root that scrolls sideways but cannot be reached from the keyboard (neither focusable
 * itself nor holding anything focusable): a keyboard user could not scroll to the rest of what it holds.
 */
export async function unreachableScrollBoxes(root: Locator): Promise<string[]> {
  return root.evaluate((element) =>
    [...element.querySelectorAll('*')]
      .filter((box): box is HTMLElement => box instanceof HTMLElement && /auto|scroll/.test(getComputedStyle(box).overflowX) && box.scrollWidth > box.clientWidth + 1)
      .filter((box) => box.tabIndex < 0 && !box.querySelector('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])'))
      .map((box) => (box.textContent ?? '').slice(0, 60)),
  );
}

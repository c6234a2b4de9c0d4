/**
 * A callback ref for a box that scrolls sideways when what it holds is longer than it (a uid in a table cell):
 * reachable from the keyboard while, and only while, it scrolls, so arrow keys can scroll it and a row of short
 * uids adds no tab stops. Watches the box's size; a box without layout (tests) is left alone.
 */
export function focusableWhileItScrolls(box: HTMLElement | null): (() => void) | undefined {
  if (!box || typeof ResizeObserver === 'undefined') return undefined;
  const update = () => {
    if (box.scrollWidth > box.clientWidth + 1) box.tabIndex = 0;
    else box.removeAttribute('tabindex');
  };
  const observer = new ResizeObserver(update);
  observer.observe(box);
  if (box.firstElementChild) observer.observe(box.firstElementChild);
  update();
  return () => observer.disconnect();
}

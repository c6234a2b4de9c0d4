/** The box each watched element stands for: the box itself, or what it holds. */
const boxOf = new WeakMap<Element, HTMLElement>();
let observer: ResizeObserver | undefined;

/**
 * One observer for every box, reading every size before it touches any tabindex: fifty rows drawn at once
 * cost one layout, where a read on each mount (between another's tabindex write) forced one per row.
 * Its first report for a box comes after the box's first layout, so nothing is read while rows mount.
 */
function watchedBoxes(): ResizeObserver {
  observer ??= new ResizeObserver((entries) => {
    const boxes = new Set(entries.map((entry) => boxOf.get(entry.target)).filter((box) => box !== undefined));
    const scrolls = [...boxes].map((box) => [box, box.scrollWidth > box.clientWidth + 1] as const);
    for (const [box, scrolling] of scrolls) {
      if (scrolling) box.tabIndex = 0;
      else box.removeAttribute('tabindex');
    }
  });
  return observer;
}

/**
 * A callback ref for a box that scrolls sideways when what it holds is longer than it (a uid in a table cell):
 * reachable from the keyboard while, and only while, it scrolls, so arrow keys can scroll it and a row of short
 * uids adds no tab stops. Watches the box's size; a box without layout (tests) is left alone.
 */
export function focusableWhileItScrolls(box: HTMLElement | null): (() => void) | undefined {
  if (!box || typeof ResizeObserver === 'undefined') return undefined;
  const watched = [box, ...(box.firstElementChild ? [box.firstElementChild] : [])];
  const boxes = watchedBoxes();
  for (const element of watched) {
    boxOf.set(element, box);
    boxes.observe(element);
  }
  return () => {
    for (const element of watched) boxes.unobserve(element);
  };
}

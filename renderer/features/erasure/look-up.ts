/**
 * "Look it up" hands the uid to the Users screen's search over every page
 * (the input marked data-find-person). Through the DOM rather than a store so
 * the dialog does not depend on how that screen keeps its text.
 */
const SEARCH_INPUT = 'input[data-find-person]';

export function searchAvailable(): boolean {
  return typeof document !== 'undefined' && document.querySelector(SEARCH_INPUT) !== null;
}

export function lookUpInSearch(text: string): void {
  const input = document.querySelector<HTMLInputElement>(SEARCH_INPUT);
  if (!input) return;
  // React tracks a controlled input's value: set it through the native setter, then announce the change.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.focus();
}

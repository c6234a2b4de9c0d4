/**
 * "Look it up" hands the uid to the Users screen's "Find a person — every page"
 * (renderer/features/users/find-person.tsx) and runs it. Through the DOM rather
 * than a store so the dialog does not depend on how that screen keeps its text.
 */
const SEARCH_INPUT = '.find-person form[role="search"] input[type="search"]';

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
  // Submitted once React has taken the new text (the next task), as if the operator pressed Enter.
  setTimeout(() => input.form?.requestSubmit(), 0);
}

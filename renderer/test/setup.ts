import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type * as Zustand from 'zustand';
import { resetBatchRun } from '../features/batch/batch-run-store';

/**
 * Set-up of every renderer test file. The renderer project runs its files one after another in the same
 * jsdom and module graph (vitest.config.ts, isolate: false), so after every test this puts back what a
 * test may have changed: the document, storage, every zustand store, the batch run followed outside
 * React, fake timers, spies and globals replaced by assignment (vitest.config.ts puts back stubbed globals).
 */

// Both suites share two cores with whatever else runs: a render can take longer than testing-library's default second.
configure({ asyncUtilTimeout: 5_000 });

/** Every store's way back to its first state, kept across the files of a worker (the stores are created once per worker). */
const storeResets = vi.hoisted(() => ((globalThis as { __privacyDeskStoreResets?: Set<() => void> }).__privacyDeskStoreResets ??= new Set<() => void>()));

// zustand's own testing recipe: each store made by `create` remembers its first state.
vi.mock('zustand', async (importOriginal) => {
  const zustand = await importOriginal<typeof Zustand>();
  const createRemembered = <T,>(creator: Zustand.StateCreator<T, [], []>) => {
    const store = zustand.create<T>()(creator);
    const initial = store.getInitialState();
    storeResets.add(() => store.setState(initial, true));
    return store;
  };
  const create = (<T,>(creator?: Zustand.StateCreator<T, [], []>) => (creator ? createRemembered(creator) : createRemembered)) as typeof zustand.create;
  return { ...zustand, create };
});

/** Globals some tests replace by assignment (a download's object URL, the clipboard), as jsdom first had them. */
const PRISTINE = vi.hoisted(() => {
  const kept = globalThis as { __privacyDeskPristine?: Array<[object, string, PropertyDescriptor | undefined]> };
  kept.__privacyDeskPristine ??= [
    [URL, 'createObjectURL', Object.getOwnPropertyDescriptor(URL, 'createObjectURL')],
    [URL, 'revokeObjectURL', Object.getOwnPropertyDescriptor(URL, 'revokeObjectURL')],
    [navigator, 'clipboard', Object.getOwnPropertyDescriptor(navigator, 'clipboard')],
  ];
  return kept.__privacyDeskPristine;
});

function pristineGlobals() {
  for (const [owner, name, descriptor] of PRISTINE) {
    if (descriptor) Object.defineProperty(owner, name, descriptor);
    else Reflect.deleteProperty(owner, name);
  }
}

/** The document as a fresh jsdom has it: nothing in the body, no attribute on <html> or <body> (lang, theme, a dialog's scroll lock). */
function freshDocument() {
  document.body.replaceChildren();
  for (const element of [document.documentElement, document.body]) {
    for (const name of element.getAttributeNames()) element.removeAttribute(name);
  }
  window.history.replaceState(null, '', '/');
}

afterEach(() => {
  cleanup();
  freshDocument();
  localStorage.clear();
  sessionStorage.clear();
  resetBatchRun();
  for (const reset of storeResets) reset();
  vi.useRealTimers();
  vi.restoreAllMocks();
  pristineGlobals();
});

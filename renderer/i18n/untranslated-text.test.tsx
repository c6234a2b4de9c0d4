import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIRMATION_WORDS } from '../../shared/batch';
import type { BridgeClient } from '../../shared/contract';
import { useBatchDraft } from '../features/batch/batch-draft-store';
import { AppRoot, createQueryClient } from '../app-root';
import { useNotices } from '../state/notices-store';
import { useUiStore } from '../state/ui-store';
import { createFakeBridge, LIVE_PROFILE, LOCAL_PROFILE } from '../test/fake-bridge';
import { en } from './en';
import { messagesEn, messagesNamespace } from './index';

/**
 * Catches text that reaches the screen without going through i18next. Every English string is turned
 * into a pseudo-locale (each letter swapped for an accented twin, {{variables}} kept), the whole console
 * is rendered screen by screen, and every visible text and accessible name is scanned: a plain-ASCII word
 * left over is either data from the bridge (allowed: it is the service's, not ours) or a string written
 * outside i18next — a bug in a French console.
 */

const TWIN: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'áƀćđéƒĝĥíĵķĺḿńóṕʠŕśťúṽŵẋýźÁƁĆĐÉƑĜĤÍĴĶĹḾŃÓṔɊŔŚŤÚṼŴẊÝŹ'][i]!]),
);

function pseudo(text: string): string {
  // Interpolations ({{uid}}) and nesting ($t(...)) stay as they are: i18next must still find them.
  return text
    .split(/({{[^}]*}}|\$t\([^)]*\))/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[A-Za-z]/g, (c) => TWIN[c] ?? c)))
    .join('');
}

function pseudoTree(node: unknown): unknown {
  if (typeof node === 'string') return pseudo(node);
  return Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([key, value]) => [key, pseudoTree(value)]));
}

function pseudoI18n() {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: { en: { translation: pseudoTree(en) as Record<string, unknown>, messages: pseudoTree(messagesNamespace(messagesEn)) as Record<string, unknown> } },
    ns: ['translation', 'messages'],
    defaultNS: 'translation',
    lng: 'en',
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

/** Words that are the same in every language: protocol and format names, JWT claim names. */
// The batch's confirmation words (ANONYMISE 20) too: the operator types exactly these, whatever the language.
const SAME_IN_EVERY_LANGUAGE = new Set([...Object.values(CONFIRMATION_WORDS), 'HTTP', 'HTTPS', 'JSON', 'CSV', 'PDF', 'JWT', 'URL', 'API', 'OIDC', 'uid', 'jti', 'sub', 'aud', 'iat', 'exp', 'alg', 'typ', 'sid', 'HS256', 'HS384', 'HS512', 'Privacy', 'Desk', 'SHA']);

const WORD = /[A-Za-z][A-Za-z0-9]{2,}/g;

/** Every word the bridge handed to the page (names, uids, hosts, error messages from the core). */
function recordingBridge(bridge: BridgeClient, seen: Set<string>): BridgeClient {
  return new Proxy(bridge, {
    get(target, method: string) {
      const call = target[method as keyof BridgeClient] as unknown as (input: unknown) => Promise<unknown>;
      return async (input: unknown) => {
        const result = await call(input);
        for (const word of JSON.stringify(result ?? null).match(WORD) ?? []) seen.add(word);
        return result;
      };
    },
  });
}

function dateWords(): Set<string> {
  const words = new Set<string>(['AM', 'PM']);
  for (let month = 0; month < 12; month += 1) {
    const day = new Date(Date.UTC(2025, month, 1));
    for (const style of ['short', 'long'] as const) {
      words.add(day.toLocaleString('en', { month: style }).replace('.', ''));
      words.add(day.toLocaleString('en', { weekday: style }).replace('.', ''));
    }
  }
  return words;
}

/** The ASCII words on screen that neither the bridge nor a translation explains. */
function untranslatedWords(allowed: Set<string>): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !parent.closest('script, style, pre, code, [lang]:not(html)')) texts.push(node.textContent ?? '');
  }
  for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) texts.push(element.getAttribute(name) ?? '');
  }
  const found = new Set<string>();
  for (const text of texts) for (const word of text.match(WORD) ?? []) if (!allowed.has(word)) found.add(`${word}  ←  “${text.trim().slice(0, 80)}”`);
  return [...found];
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('no English outside i18next', () => {
  it.each([
    ['a local profile, keychain available', { profiles: [LOCAL_PROFILE] }],
    ['a live profile, no keychain', { profiles: [LIVE_PROFILE], keychain: { available: false, problem: 'No D-Bus session is reachable (autolaunch failed).' } }],
  ] as const)('every screen, with %s, shows only translated words and data', async (_label, options) => {
    useUiStore.setState({ language: 'en', visibleFields: [], usersPage: null, perPage: 10, erasure: null, view: 'users' });
    useNotices.setState({ notices: [] });
    // The batch screen keeps its list across views: each run starts with none (what the operator typed is theirs, not ours).
    useBatchDraft.getState().clear();
    const fake = createFakeBridge({ ...options, profiles: [...options.profiles] });
    const seen = new Set<string>();
    render(<AppRoot bridge={recordingBridge(fake.bridge, seen)} i18n={pseudoI18n()} queryClient={createQueryClient()} />);
    const allowed = new Set([...seen, ...SAME_IN_EVERY_LANGUAGE, ...dateWords()]);
    const problems: string[] = [];
    const scan = (where: string) => {
      for (const word of untranslatedWords(new Set([...allowed, ...seen]))) problems.push(`${where}: ${word}`);
    };

    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(5));
    scan('users');
    act(() => useUiStore.getState().openErasure({ action: 'delete', uid: fake.users[2]!.uid! }));
    await screen.findByRole('dialog');
    scan('erasure dialog');
    act(() => useUiStore.getState().closeErasure());

    for (const view of ['batch', 'logout', 'audit', 'profiles'] as const) {
      act(() => useUiStore.getState().setView(view));
      await waitFor(() => expect(document.querySelector(`[role="tabpanel"][data-state="active"] h2`)).not.toBeNull());
      scan(view);
      if (view === 'batch') {
        // The preview's words too: a CSV with its uid column, a uid with edge spaces and an invalid line.
        fireEvent.change(document.querySelector('[role="tabpanel"][data-state="active"] textarea')!, { target: { value: 'uid,ticket\n alice,T-1\n..,T-2\nbob,T-3' } });
        await waitFor(() => expect(document.querySelector('.batch-invalid')).not.toBeNull());
        scan('batch preview');
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainVerdict } from '../../../shared/audit';
import { createI18n } from '../../i18n';
import { IntegrityBadge } from './integrity-badge';

const HEAD = 'a'.repeat(64);
afterEach(cleanup);

function show(verdict: ChainVerdict, language: 'en' | 'fr' = 'en') {
  render(
    <I18nextProvider i18n={createI18n(language)}>
      <IntegrityBadge verdict={verdict} onVerify={() => undefined} verifying={false} />
    </I18nextProvider>,
  );
  return screen.getByTestId('integrity');
}

describe('integrity badge: the anchor kept outside the file', () => {
  it('says the trail was checked against the keychain, and since when an adopted trail is anchored', () => {
    show({ ok: true, entries: 12, headHash: HEAD, chainId: 'c', anchor: { store: 'keychain', state: 'checked', findings: 0, adopted: { at: '2026-11-22T18:00:00.000+01:00', seq: 8 } } });
    expect(screen.getByTestId('integrity-anchor').textContent).toMatch(/^Anchored in this computer’s keychain since .+; the 8 entries before were taken as found then\.$/);
  });

  it('a first check says the head is kept from now on; without a keychain, for this session only', () => {
    show({ ok: true, entries: 3, headHash: HEAD, chainId: 'c', anchor: { store: 'keychain', state: 'adopted', findings: 0 } });
    expect(screen.getByTestId('integrity-anchor').textContent).toBe('No anchor was kept for this data folder: the keychain keeps this head from now on, and later checks compare with it.');
  });

  it('a rollback the anchor caught is a broken chain, in the window’s language', () => {
    const badge = show(
      {
        ok: false,
        entries: 2,
        kind: 'rolled-back',
        line: 3,
        message: 'The last 2 entries were removed: the trail ends at entry 2, but the keychain’s anchor held entry 4 (…).',
        text: { id: 'anchor.removed', params: { count: 2, found: 2, held: { id: 'anchor.held', params: { seq: 4, hash: 'ab4ca7874e25…', at: '2026-11-24T14:08:32.398+00:00' } } } },
        headHash: HEAD,
        anchor: { store: 'keychain', state: 'checked', findings: 1 },
      },
      'fr',
    );
    expect(badge.className).toContain('integrity--broken');
    expect(badge.textContent).toContain('le journal s’arrête avant la tête enregistrée par son ancre');
    // The detail in French too, from the same message the CLI words in English.
    expect(badge.textContent).toContain('Les 2 dernières entrées ont été retirées\u00a0: le journal s’arrête à l’entrée 2, mais l’ancre du trousseau tenait l’entrée 4 (empreinte ab4ca7874e25…) le 2026-11-24T14:08:32.398+00:00 (ôtées de la fin');
    expect(badge.textContent).not.toContain('The last');
    expect(screen.getByTestId('integrity-anchor').textContent).toBe('Ancré dans le trousseau de cet ordinateur\u00a0: un retour en arrière, un fichier supprimé ou une réécriture sont détectés. Une écriture a trouvé 1 problème en chemin\u00a0; il reste consigné.');
  });

  it('session only', () => {
    show({ ok: true, entries: 1, headHash: HEAD, chainId: 'c', anchor: { store: 'session', state: 'adopted', findings: 0 } });
    expect(screen.getByTestId('integrity-anchor').textContent).toMatch(/^Anchored for this session only: no keychain is in use/);
  });
});

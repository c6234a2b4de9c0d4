import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChainVerdict } from '../../../shared/audit';
import type { MessageText } from '../../../shared/message-text';
import { createI18n } from '../../i18n';
import type { AcknowledgeFinding } from './anchor-findings';
import { IntegrityBadge } from './integrity-badge';

const HEAD = 'a'.repeat(64);
afterEach(cleanup);

function show(verdict: ChainVerdict, language: 'en' | 'fr' = 'en', onAcknowledge?: AcknowledgeFinding) {
  render(
    <I18nextProvider i18n={createI18n(language)}>
      <IntegrityBadge verdict={verdict} onVerify={() => undefined} verifying={false} {...(onAcknowledge ? { onAcknowledge } : {})} />
    </I18nextProvider>,
  );
  return screen.getByTestId('integrity');
}

const FINDING = '3f9a1c2b7d4e';
const AT = '2026-11-24T14:08:32.398+00:00';
const INCONCLUSIVE: MessageText = {
  id: 'anchor.unlanded',
  params: { range: { id: 'anchor.range.one', params: { from: 3 } }, at: AT, end: { id: 'anchor.endsAt', params: { seq: 2 } }, evidence: { id: 'anchor.evidence.none' } },
};
const REASON = 'Power cut in the server room on 24 November (incident INC-1042).';

describe('integrity badge: the request register the trail vouches for', () => {
  it('a register changed outside Privacy Desk is a broken verdict, though the chain itself holds, in the window’s language', () => {
    const badge = show(
      {
        ok: true,
        entries: 9,
        headHash: HEAD,
        chainId: 'c',
        register: { ok: false, events: 3, kind: 'edited', line: 2, message: 'Line 2 of requests.jsonl was changed.', text: { id: 'requests.notFound', params: { id: 'REQ-2026-0001' } } },
      },
      'fr',
    );
    expect(badge.className).toContain('integrity--broken');
    expect(badge.textContent).toContain('Le registre des demandes ne correspond pas au journal d’audit à sa ligne 2');
    expect(badge.textContent).not.toContain('Vérifié');
  });

  it('an intact register is said with the chain’s verdict', () => {
    const badge = show({ ok: true, entries: 9, headHash: HEAD, chainId: 'c', register: { ok: true, events: 3 } });
    expect(badge.className).toContain('integrity--ok');
    expect(badge.textContent).toContain('Request register: 3 changes vouched for by the trail');
  });
});

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

  it('a deleted trail names no line: it says the trail is empty or missing', () => {
    const emptied: MessageText = { id: 'anchor.emptied', params: { held: { id: 'anchor.held', params: { seq: 4, hash: '08725bf3e8fd…', at: AT } } } };
    const badge = show({ ok: false, entries: 0, kind: 'rolled-back', line: 1, message: 'emptied', text: emptied, headHash: null, anchor: { store: 'keychain', state: 'checked', findings: 1 } });
    expect(badge.querySelector('.integrity__title')?.textContent).toBe('The trail is empty or missing: the trail ends before the head its anchor recorded (rolled back or deleted)');
    expect(badge.textContent).not.toContain('line 1');
  });

  it('a deleted trail, an act, then a backup put back: both open findings are counted and listed, each with what to do, in English and French', () => {
    const rewritten: MessageText = { id: 'anchor.rewritten', params: { held: { id: 'anchor.held', params: { seq: 2, hash: 'ce124a850ae3…', at: AT } }, now: { id: 'anchor.now.entry', params: { seq: 4, hash: '08725bf3e8fd…' } } } };
    const emptied: MessageText = { id: 'anchor.emptied', params: { held: { id: 'anchor.held', params: { seq: 4, hash: '08725bf3e8fd…', at: AT } } } };
    const verdict: ChainVerdict = {
      ok: false,
      entries: 4,
      kind: 'rewritten',
      line: 2,
      message: 'The trail is not the one the anchor vouches for (…).',
      text: rewritten,
      headHash: HEAD,
      anchor: {
        store: 'keychain',
        state: 'checked',
        findings: 1,
        open: [
          { finding: 'c6f742cd0fc8', kind: 'rewritten', text: rewritten, next: { id: 'anchor.next.rewritten' } },
          { finding: '1b3a5cf853af', kind: 'rolled-back', text: emptied, foundAt: AT, next: { id: 'anchor.next.rolledBack' } },
        ],
      },
    };
    const badge = show(verdict);
    expect(screen.getByTestId('integrity-anchor').textContent).toBe('Anchored in this computer’s keychain: a rollback, a deleted file or a rewrite is caught. 2 findings of the anchor are open: the details list each, with what to do.');
    expect(badge.textContent).not.toMatch(/A write found 1 problem|shown above|the first is the verdict/);
    const details = within(badge).getByTestId('anchor-findings');
    expect(details.textContent).toContain('Details: 2 findings of the anchor');
    const items = within(details).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-finding'))).toEqual(['c6f742cd0fc8', '1b3a5cf853af']);
    expect(items[0]!.textContent).toMatch(/Open finding c6f742cd0fc8 · found by this check.*What to do: if audit\.jsonl was replaced on purpose/);
    expect(items[1]!.textContent).toMatch(/Open finding 1b3a5cf853af · found by a write on .*all of its entries were removed.*What to do: if the file was deleted, emptied or replaced by an older copy on purpose/);
    cleanup();

    const french = show(verdict, 'fr');
    expect(screen.getByTestId('integrity-anchor').textContent).toContain('2 constats de l’ancre sont ouverts\u00a0: les détails les énumèrent, chacun avec ce qu’il faut faire.');
    expect(within(french).getAllByRole('listitem')[1]!.textContent).toContain('Que faire\u00a0: si le fichier a été supprimé, vidé ou remplacé par une copie plus ancienne volontairement');
  });

  it('session only', () => {
    show({ ok: true, entries: 1, headHash: HEAD, chainId: 'c', anchor: { store: 'session', state: 'adopted', findings: 0 } });
    expect(screen.getByTestId('integrity-anchor').textContent).toMatch(/^Anchored for this session only: no keychain is in use/);
  });

  it('an open finding is acknowledged in the details by typing why: the button waits for a reason that says something', async () => {
    const user = userEvent.setup();
    const onAcknowledge = vi.fn<AcknowledgeFinding>(async () => undefined);
    const badge = show(
      {
        ok: false,
        entries: 2,
        kind: 'unlanded',
        line: 3,
        message: 'Inconclusive: …',
        text: INCONCLUSIVE,
        headHash: HEAD,
        anchor: { store: 'keychain', state: 'checked', findings: 0, open: [{ finding: FINDING, kind: 'unlanded', text: INCONCLUSIVE }] },
      },
      'en',
      onAcknowledge,
    );
    expect(badge.textContent).toContain('Chain broken at line 3: a write its anchor knew under way is not in the trail (a crash or a removal: inconclusive)');
    const details = screen.getByTestId('anchor-findings');
    await user.click(within(details).getByText('Details: 1 finding of the anchor'));
    expect(within(details).getByText(`Open finding ${FINDING}`)).toBeTruthy();
    await user.click(within(details).getByRole('button', { name: 'Acknowledge…' }));
    const confirm = within(details).getByRole('button', { name: `Acknowledge finding ${FINDING}` });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    const reason = within(details).getByLabelText(`Why is finding ${FINDING} acceptable?`);
    await user.type(reason, 'ok');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    expect(details.textContent).toContain('Say why you acknowledge this finding, in at least 10 characters');
    await user.clear(reason);
    await user.type(reason, REASON);
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    await user.click(confirm);
    expect(onAcknowledge).toHaveBeenCalledWith(FINDING, REASON);
  });

  it('after it, the chain is verified and the badge says who acknowledged which finding, when and why; in French too', () => {
    const verdict: ChainVerdict = {
      ok: true,
      entries: 3,
      headHash: HEAD,
      chainId: 'c',
      anchor: { store: 'keychain', state: 'checked', findings: 1, acknowledged: [{ finding: FINDING, kind: 'unlanded', text: INCONCLUSIVE, foundAt: AT, at: AT, by: 'anna', reason: REASON, line: 3 }] },
    };
    const badge = show(verdict);
    expect(badge.className).toContain('integrity--ok');
    expect(screen.getByTestId('integrity-acknowledged').textContent).toMatch(new RegExp(`^1 finding acknowledged on .+ by anna: ${REASON.replace(/[().]/g, '\\$&')}$`));
    expect(screen.getByTestId('anchor-findings').textContent).toContain(`Finding ${FINDING}, acknowledged on`);
    expect(screen.getByTestId('anchor-findings').textContent).toContain('Still on record: Inconclusive: a write of entry 3');
    cleanup();
    show(verdict, 'fr');
    expect(screen.getByTestId('integrity-acknowledged').textContent).toMatch(/^1 constat pris en compte le .+ par anna\u00a0: Power cut/);
    expect(screen.getByTestId('anchor-findings').textContent).toContain('Toujours consigné\u00a0: Non concluant\u00a0: une écriture de l’entrée 3');
  });

  it('a crash its fragment proves is said, and the chain stays verified with nothing to acknowledge', () => {
    const crash: MessageText = { id: 'anchor.crash', params: { at: AT, file: '/data/audit.jsonl.torn-2026-11-24T14-09-00-000Z' } };
    show({ ok: true, entries: 2, headHash: HEAD, chainId: 'c', anchor: { store: 'keychain', state: 'checked', findings: 0, crashes: [crash] } }, 'fr');
    expect(screen.getByTestId('integrity-crash').textContent).toBe(`Une écriture a été interrompue par un plantage le ${AT} (son fragment est dans /data/audit.jsonl.torn-2026-11-24T14-09-00-000Z)\u00a0: rien n’en a atteint le journal.`);
    expect(screen.queryByRole('button', { name: 'Prendre acte…' })).toBeNull();
  });
});

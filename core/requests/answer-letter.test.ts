import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/audit';
import type { RequestView } from '../../shared/requests';
import { actsForReceipt } from '../receipt-acts';
import { letterOutcomes, writeAnswerLetter, type LetterInput } from './answer-letter';
import { LETTER_WORDS } from './answer-letter-words';

const entry = (more: Partial<AuditEntry>): AuditEntry => ({
  at: '2026-03-05T10:00:00.000+01:00',
  action: 'anonymize',
  outcome: 'attempted',
  uid: 'alice@example.org',
  reference: 'REQ-2026-0007',
  profileId: 'prod',
  profileName: 'Production',
  baseUrl: 'https://debate.example.com',
  operator: 'dpo',
  appVersion: '1.0.0',
  via: 'cli',
  ...more,
});
/** One act: attempted, then its outcome at `at`. */
const act = (actId: string, uid: string, outcome: Partial<AuditEntry>, action: AuditEntry['action'] = 'anonymize') => [
  entry({ actId, uid, action }),
  entry({ actId, uid, action, outcome: 'done', status: 200, ...outcome }),
];
const actsOf = (entries: AuditEntry[]) =>
  actsForReceipt(
    entries.map((e, index) => ({ entry: e, line: index + 1, hash: 'a'.repeat(64) })),
    { request: { id: 'REQ-2026-0007', receivedAt: '', deadline: '', extended: false, actIds: [], batchJobIds: [] } },
  );

const view = (more: Partial<RequestView> = {}): RequestView => ({
  id: 'REQ-2026-0007',
  // 23:30 UTC on 28 February is 1 March in Paris: the letter's days are the register's.
  receivedAt: '2026-02-28T23:30:00Z',
  channel: 'e-mail',
  actions: ['anonymize'],
  subjects: [{ uid: 'alice@example.org' }, { uid: 'alice-old' }, { uid: 'alice-2' }],
  notes: 'Called in from the front desk by Alice Martin',
  requester: { state: 'shown', name: 'Alice Martin', contact: 'alice.martin@example.net' },
  status: 'answered',
  pauses: [],
  links: { actIds: [], batchJobIds: [] },
  history: [],
  createdAt: '2026-03-01T09:00:00.000+01:00',
  closedAt: '2026-03-20T10:00:00.000+01:00',
  clock: { deadline: '2026-04-01', firstDeadline: '2026-04-01', pausedDays: 0, daysLeft: 0, state: 'closed' },
  ...more,
});
const HEAD = 'cd'.repeat(32);
const input = (more: Partial<LetterInput> = {}): LetterInput => {
  const acts = actsOf([
    ...act('a1', 'alice@example.org', {}),
    ...act('a2', 'alice-old', { at: '2026-03-07T09:00:00.000+01:00' }),
    ...act('a3', 'alice-2', { outcome: 'refused', status: 404, errorCode: 'NOT_FOUND' }),
  ]);
  return { view: view(), withContact: false, outcomes: letterOutcomes(acts, 'Europe/Paris'), acts: acts.length, timeZone: 'Europe/Paris', today: '2026-03-20', receiptFileName: 'privacy-desk-receipt-REQ-2026-0007-20260320-101500.pdf', headHash: HEAD, chainVerified: true, ...more };
};
const PERSONAL = /Alice|Martin|alice|example\.(org|net)|front desk/;

describe('the answer letter', () => {
  it('done, several acts, in English: what was asked, when received, what was done when, by account count, the proof; no personal data unless asked', () => {
    const letter = writeAnswerLetter(input(), 'en');
    expect(letter).toBe(
      [
        '20 March 2026',
        'Your request REQ-2026-0007, received on 1 March 2026',
        'Dear Sir or Madam,',
        'On 1 March 2026 we received your request to anonymise your 3 accounts on our service.',
        'What we did:\n- 2 accounts anonymised from 5 March 2026 to 7 March 2026',
        '1 account was not found on the service: already erased, or never there. Nothing was changed.',
        `Proof: the enclosed receipt (privacy-desk-receipt-REQ-2026-0007-20260320-101500.pdf) lists each act on our service with its time and outcome, drawn from our audit trail, in which any later change can be detected. The trail’s state when this letter was written is fixed by this fingerprint (SHA-256): ${HEAD}`,
        'Yours faithfully,',
        'The data protection officer',
      ].join('\n\n') + '\n',
    );
    expect(letter).not.toMatch(PERSONAL);
  });

  it('names the requester (and the contact) only when asked', () => {
    const letter = writeAnswerLetter(input({ withContact: true }), 'en');
    expect(letter).toContain('Alice Martin\nalice.martin@example.net\n\nYour request');
    expect(letter).toContain('Dear Alice Martin,');
    expect(letter).not.toMatch(/alice@example\.org|alice-old|front desk/);
    const french = writeAnswerLetter(input({ withContact: true }), 'fr');
    expect(french).toContain('20 mars 2026\n\nAlice Martin\nalice.martin@example.net\n\nObjet');
    // A view read without the contact never lends it to the letter, asked or not.
    expect(writeAnswerLetter(input({ withContact: true, view: view({ requester: { state: 'hidden' } }) }), 'en')).not.toMatch(PERSONAL);
  });

  it('done in French, on one day, with an act the service did not confirm and a log-out', () => {
    const acts = actsOf([...act('a1', 'u1', { at: '2026-03-01T12:00:00.000+01:00' }, 'delete'), ...act('a2', 'u2', { outcome: 'unknown', status: undefined }, 'delete'), ...act('a3', 'u1', { at: '2026-03-01T12:05:00.000+01:00' }, 'logout')]);
    const letter = writeAnswerLetter(input({ outcomes: letterOutcomes(acts, 'Europe/Paris'), acts: acts.length, view: view({ actions: ['delete', 'logout'], subjects: [{ uid: 'u1' }, { uid: 'u2' }] }) }), 'fr');
    expect(letter).toContain('20 mars 2026\n\nObjet\u00a0: votre demande REQ-2026-0007, reçue le 1er mars 2026\n\nMadame, Monsieur,');
    expect(letter).toContain('Le 1er mars 2026, nous avons reçu votre demande visant à supprimer vos 2 comptes et mettre fin à toutes les sessions de vos 2 comptes sur notre service.');
    expect(letter).toContain('Ce que nous avons fait\u00a0:\n- 1 compte supprimé le 1er mars 2026\n- toutes les sessions de 1 compte fermées (déconnexion) le 1er mars 2026');
    expect(letter).toContain('Pour 1 compte, le service n’a pas confirmé l’acte. Nous le vérifions et vous écrirons de nouveau.');
    expect(letter).toContain(`(SHA-256)\u00a0: ${HEAD}`);
    expect(letter).toMatch(/Veuillez agréer, Madame, Monsieur, l’expression de nos salutations distinguées\.\n\nLe délégué à la protection des données\n$/);
  });

  it('refused, with its ground in words and the requester’s rights, in both languages', () => {
    const refused = input({ view: view({ status: 'refused', refusalGround: 'The data are needed to establish a legal claim (Art. 17(3)(e))' }), outcomes: { done: [], notFound: 0, unconfirmed: 0 }, acts: 0 });
    const english = writeAnswerLetter(refused, 'en');
    expect(english).toContain('We cannot grant your request, on this ground: The data are needed to establish a legal claim (Art. 17(3)(e)).');
    expect(english).toContain('You may lodge a complaint with a data protection supervisory authority and seek a judicial remedy');
    expect(english).not.toContain('No act on our service');
    const french = writeAnswerLetter(refused, 'fr');
    expect(french).toContain('Nous ne pouvons pas donner suite à votre demande, pour ce motif\u00a0: The data are needed');
    expect(french).toContain('Vous pouvez introduire une réclamation auprès d’une autorité de contrôle');
  });

  it('extended: the reason and the day the person was told; a trail that did not verify is said', () => {
    const extended = input({ view: view({ extension: { reason: 'Numerous accounts', decidedAt: '2026-03-10T09:00:00+01:00', personToldAt: '2026-03-10T09:30:00+01:00' } }), chainVerified: false });
    expect(writeAnswerLetter(extended, 'en')).toContain('As we told you on 10 March 2026, we extended the time to answer your request by two months, for this reason: Numerous accounts.');
    expect(writeAnswerLetter(extended, 'en')).toContain('our check of the audit trail found a problem; the receipt states it.');
    expect(writeAnswerLetter(extended, 'fr')).toContain('Comme nous vous l’avons indiqué le 10 mars 2026, nous avons prolongé de deux mois le délai de réponse à votre demande, pour ce motif\u00a0: Numerous accounts.');
  });

  it('answered without any act says so', () => {
    expect(writeAnswerLetter(input({ outcomes: { done: [], notFound: 0, unconfirmed: 0 }, acts: 0 }), 'en')).toContain('No act on our service was needed or recorded for this request.');
  });

  it('French typography in every letter: a no-break space before : ; ? ! and inside « », none before elsewhere', () => {
    const cases = [
      input({ withContact: true }),
      input({ view: view({ status: 'refused', refusalGround: 'Motif légal', extension: { reason: 'Nombreux comptes', decidedAt: '2026-03-10T09:00:00+01:00', personToldAt: '2026-03-10T09:30:00+01:00' } }), chainVerified: false }),
      input({ outcomes: { done: [{ act: 'logout', accounts: 2, from: '2026-03-01', to: '2026-03-02' }], notFound: 2, unconfirmed: 2 }, acts: 0 }),
    ];
    for (const letter of cases.map((c) => writeAnswerLetter(c, 'fr'))) {
      expect(letter).not.toMatch(/[^\u00a0][:;?!»]|«[^\u00a0]/);
      expect(letter).not.toMatch(/\u202f/);
    }
    for (const words of Object.values(LETTER_WORDS)) for (const value of Object.values(words)) if (typeof value === 'string') expect(value.trim()).not.toBe('');
  });
});

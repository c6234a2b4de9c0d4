import type { RequestAction } from '../../shared/requests';
import type { ReceiptLocale } from '../receipt-words';

/** What the letter says was done to accounts, by the service's act. */
export type LetterAct = RequestAction;

/**
 * Every word of the answer letter to a requester, one shape per language (tsc keeps them in step). Values from the
 * register (the id, the DPO's ground and reason, the requester's name when asked for) come in as data, as typed.
 * Dates come in already written out by `day` and `period`.
 */
export interface LetterWords {
  /** A calendar day in words: 5 March 2026, 1er mars 2026. */
  day: (year: number, month: number, day: number) => string;
  /** Two days of a period: from 5 to 7 March, du 5 au 7 mars. */
  period: (from: string, to: string) => string;
  onDay: (day: string) => string;
  addressee: (name: string | undefined, contact: string | undefined) => string[];
  subject: (id: string, received: string) => string;
  greeting: (name: string | undefined) => string;
  asked: (received: string, what: string) => string;
  /** What a person asked, with its object: "anonymise your 2 accounts". */
  askedAct: (act: LetterAct, accounts: number) => string;
  and: string;
  doneTitle: string;
  done: (act: LetterAct, accounts: number, when: string) => string;
  notFound: (accounts: number) => string;
  unconfirmed: (accounts: number) => string;
  noAct: string;
  extended: (toldOn: string, reason: string) => string;
  refused: (ground: string) => string;
  refusalRights: string;
  proof: (fileName: string) => string;
  fingerprint: (hash: string) => string;
  proofUnverified: string;
  closing: (name: string | undefined) => string;
  signature: string;
}

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const FR_MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];
const accountsEn = (n: number) => (n === 1 ? '1 account' : `${n} accounts`);
const accountsFr = (n: number) => (n === 1 ? '1 compte' : `${n} comptes`);

const en: LetterWords = {
  day: (year, month, day) => `${day} ${EN_MONTHS[month - 1]} ${year}`,
  period: (from, to) => `from ${from} to ${to}`,
  onDay: (day) => `on ${day}`,
  addressee: (name, contact) => [name, contact].filter((line): line is string => line !== undefined),
  subject: (id, received) => `Your request ${id}, received on ${received}`,
  greeting: (name) => (name === undefined ? 'Dear Sir or Madam,' : `Dear ${name},`),
  asked: (received, what) => `On ${received} we received your request to ${what} on our service.`,
  askedAct: (act, n) => {
    const yours = n === 1 ? 'your account' : `your ${n} accounts`;
    return { anonymize: `anonymise ${yours}`, delete: `delete ${yours}`, logout: `end every session of ${yours}` }[act];
  },
  and: 'and',
  doneTitle: 'What we did:',
  done: (act, n, when) =>
    ({ anonymize: `${accountsEn(n)} anonymised ${when}`, delete: `${accountsEn(n)} deleted ${when}`, logout: `every session of ${accountsEn(n)} ended (logged out) ${when}` })[act],
  notFound: (n) => `${n === 1 ? '1 account was' : `${n} accounts were`} not found on the service: already erased, or never there. Nothing was changed.`,
  unconfirmed: (n) => `For ${accountsEn(n)}, the service did not confirm the act. We are checking ${n === 1 ? 'it' : 'them'} and will write to you again.`,
  noAct: 'No act on our service was needed or recorded for this request.',
  extended: (toldOn, reason) => `As we told you on ${toldOn}, we extended the time to answer your request by two months, for this reason: ${reason}`,
  refused: (ground) => `We cannot grant your request, on this ground: ${ground}`,
  refusalRights: 'You may lodge a complaint with a data protection supervisory authority and seek a judicial remedy (GDPR, Article 12(4)).',
  proof: (fileName) =>
    `Proof: the enclosed receipt (${fileName}) lists each act on our service with its time and outcome, drawn from our audit trail, in which any later change can be detected.`,
  fingerprint: (hash) => `The trail’s state when this letter was written is fixed by this fingerprint (SHA-256): ${hash}`,
  proofUnverified: 'When this letter was written, our check of the audit trail found a problem; the receipt states it.',
  closing: (name) => (name === undefined ? 'Yours faithfully,' : 'Yours sincerely,'),
  signature: 'The data protection officer',
};

const fr: LetterWords = {
  day: (year, month, day) => `${day === 1 ? '1er' : day} ${FR_MONTHS[month - 1]} ${year}`,
  period: (from, to) => `du ${from} au ${to}`,
  onDay: (day) => `le ${day}`,
  addressee: (name, contact) => [name, contact].filter((line): line is string => line !== undefined),
  subject: (id, received) => `Objet\u00a0: votre demande ${id}, reçue le ${received}`,
  greeting: () => 'Madame, Monsieur,',
  asked: (received, what) => `Le ${received}, nous avons reçu votre demande visant à ${what} sur notre service.`,
  askedAct: (act, n) => {
    const yours = n === 1 ? 'votre compte' : `vos ${n} comptes`;
    return { anonymize: `anonymiser ${yours}`, delete: `supprimer ${yours}`, logout: `mettre fin à toutes les sessions de ${yours}` }[act];
  },
  and: 'et',
  doneTitle: 'Ce que nous avons fait\u00a0:',
  done: (act, n, when) =>
    ({
      anonymize: `${accountsFr(n)} ${n === 1 ? 'anonymisé' : 'anonymisés'} ${when}`,
      delete: `${accountsFr(n)} ${n === 1 ? 'supprimé' : 'supprimés'} ${when}`,
      logout: `toutes les sessions de ${accountsFr(n)} fermées (déconnexion) ${when}`,
    })[act],
  notFound: (n) => `${n === 1 ? '1 compte est introuvable' : `${n} comptes sont introuvables`} sur le service\u00a0: déjà effacé${n === 1 ? '' : 's'}, ou jamais présent${n === 1 ? '' : 's'}. Rien n’a été changé.`,
  unconfirmed: (n) => `Pour ${accountsFr(n)}, le service n’a pas confirmé l’acte. Nous ${n === 1 ? 'le' : 'les'} vérifions et vous écrirons de nouveau.`,
  noAct: 'Aucun acte sur notre service n’a été nécessaire ni enregistré pour cette demande.',
  extended: (toldOn, reason) => `Comme nous vous l’avons indiqué le ${toldOn}, nous avons prolongé de deux mois le délai de réponse à votre demande, pour ce motif\u00a0: ${reason}`,
  refused: (ground) => `Nous ne pouvons pas donner suite à votre demande, pour ce motif\u00a0: ${ground}`,
  refusalRights:
    'Vous pouvez introduire une réclamation auprès d’une autorité de contrôle de la protection des données et former un recours juridictionnel (RGPD, article 12, paragraphe 4).',
  proof: (fileName) =>
    `Preuve\u00a0: le reçu joint (${fileName}) indique chaque acte sur notre service avec son heure et son résultat, tiré de notre journal d’audit, où toute modification ultérieure se détecte.`,
  fingerprint: (hash) => `L’état du journal au moment de cette lettre est fixé par cette empreinte (SHA-256)\u00a0: ${hash}`,
  proofUnverified: 'Au moment de cette lettre, notre vérification du journal d’audit a relevé un problème\u00a0; le reçu l’indique.',
  closing: () => 'Veuillez agréer, Madame, Monsieur, l’expression de nos salutations distinguées.',
  signature: 'Le délégué à la protection des données',
};

export const LETTER_WORDS: Record<ReceiptLocale, LetterWords> = { en, fr };

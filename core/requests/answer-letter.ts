import { REQUEST_ACTIONS, type RequestView } from '../../shared/requests';
import type { ReceiptAct } from '../receipt-acts';
import type { ReceiptLocale } from '../receipt-words';
import { LETTER_WORDS, type LetterAct, type LetterWords } from './answer-letter-words';
import type { CalendarDay } from './calendar-date';
import { dayInZone } from './time-zone';

/** What the acts did, counted in accounts (uids): never the uids themselves, which may be e-mail addresses. */
export interface LetterOutcomes {
  done: { act: LetterAct; accounts: number; from: CalendarDay; to: CalendarDay }[];
  /** Erasures the service answered 404: already erased, or never there. */
  notFound: number;
  /** Acts the service did not confirm (refused, failed, or no outcome recorded). */
  unconfirmed: number;
}

const isLetterAct = (operation: string): operation is LetterAct => (REQUEST_ACTIONS as readonly string[]).includes(operation);

/**
 * The acts' outcomes by kind of act and account: an account counts once per kind, its best outcome winning (an
 * erasure retried after a failure is done). A failed log-out before an erasure is not reported: the erasure is.
 */
export function letterOutcomes(acts: readonly ReceiptAct[], timeZone: string): LetterOutcomes {
  const RANK = { unconfirmed: 1, 'not-found': 2, done: 3 } as const;
  const best = new Map<LetterAct, Map<string, { state: keyof typeof RANK; days: CalendarDay[] }>>();
  for (const act of acts) {
    const erases = act.steps.some((step) => step.operation === 'anonymize' || step.operation === 'delete');
    for (const step of act.steps) {
      if (!isLetterAct(step.operation)) continue;
      const outcome = step.outcome?.entry;
      const state = outcome?.outcome === 'done' ? 'done' : outcome?.outcome === 'refused' && outcome.errorCode === 'NOT_FOUND' && step.operation !== 'logout' ? 'not-found' : 'unconfirmed';
      if (step.operation === 'logout' && erases && state !== 'done') continue;
      const byUid = best.get(step.operation) ?? new Map<string, { state: keyof typeof RANK; days: CalendarDay[] }>();
      best.set(step.operation, byUid);
      const known = byUid.get(act.first.uid);
      const day = outcome ? dayInZone(new Date(outcome.at), timeZone) : undefined;
      if (!known || RANK[state] > RANK[known.state]) byUid.set(act.first.uid, { state, days: day ? [day] : [] });
      else if (known.state === state && day) known.days.push(day);
    }
  }
  const outcomes: LetterOutcomes = { done: [], notFound: 0, unconfirmed: 0 };
  for (const act of REQUEST_ACTIONS) {
    const states = [...(best.get(act)?.values() ?? [])];
    const done = states.filter(({ state }) => state === 'done');
    const days = done.flatMap(({ days: of }) => of).sort();
    if (done.length) outcomes.done.push({ act, accounts: done.length, from: days[0] as CalendarDay, to: days[days.length - 1] as CalendarDay });
    outcomes.notFound += states.filter(({ state }) => state === 'not-found').length;
    outcomes.unconfirmed += states.filter(({ state }) => state === 'unconfirmed').length;
  }
  return outcomes;
}

export interface LetterInput {
  /** The request as read for the pack: its requester shown only when the DPO asked for it. */
  view: RequestView;
  withContact: boolean;
  outcomes: LetterOutcomes;
  /** Acts the receipt covers (a request answered without any gets its own sentence). */
  acts: number;
  /** The register's time zone: every date of the letter is a day there. */
  timeZone: string;
  today: CalendarDay;
  receiptFileName: string;
  headHash: string | null;
  chainVerified: boolean;
}

/** The answer letter as plain text (paragraphs, no hard wrapping: a mail client flows it). */
export function writeAnswerLetter(input: LetterInput, locale: ReceiptLocale): string {
  const words = LETTER_WORDS[locale];
  const { view, outcomes } = input;
  const day = (value: CalendarDay) => writtenDay(words, value);
  const shown: { name?: string; contact?: string } = input.withContact && view.requester.state === 'shown' ? view.requester : {};
  const name = shown.name;
  const paragraphs: string[] = [day(input.today)];
  const addressee = words.addressee(name, shown.contact);
  if (addressee.length) paragraphs.push(addressee.join('\n'));
  const received = day(dayInZone(new Date(view.receivedAt), input.timeZone));
  paragraphs.push(words.subject(view.id, received), words.greeting(name));
  paragraphs.push(words.asked(received, listed(words, [...new Set(view.actions)].map((act) => words.askedAct(act, view.subjects.length)))));
  if (view.extension) paragraphs.push(words.extended(day(dayInZone(new Date(view.extension.personToldAt), input.timeZone)), sentence(view.extension.reason)));
  if (view.status === 'refused') paragraphs.push(words.refused(sentence(view.refusalGround ?? '')));
  if (outcomes.done.length) {
    const lines = outcomes.done.map(({ act, accounts, from, to }) => `- ${words.done(act, accounts, from === to ? words.onDay(day(from)) : words.period(day(from), day(to)))}`);
    paragraphs.push([words.doneTitle, ...lines].join('\n'));
  }
  if (outcomes.notFound) paragraphs.push(words.notFound(outcomes.notFound));
  if (outcomes.unconfirmed) paragraphs.push(words.unconfirmed(outcomes.unconfirmed));
  if (input.acts === 0 && view.status === 'answered') paragraphs.push(words.noAct);
  const proof = [words.proof(input.receiptFileName), ...(input.headHash ? [words.fingerprint(input.headHash)] : []), ...(input.chainVerified ? [] : [words.proofUnverified])];
  paragraphs.push(proof.join(' '));
  if (view.status === 'refused') paragraphs.push(words.refusalRights);
  paragraphs.push(words.closing(name), words.signature);
  return `${paragraphs.join('\n\n')}\n`;
}

function writtenDay(words: LetterWords, day: CalendarDay): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return words.day(year, month, date);
}

/** a, b and c. */
function listed(words: LetterWords, items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${words.and} ${items[items.length - 1]}`;
}

/** The DPO's own words, ended as a sentence when they are not. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

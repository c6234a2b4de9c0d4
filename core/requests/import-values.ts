import { msg } from '../../shared/messages';
import type { MessageText } from '../../shared/message-text';
import type { RequestAction, RequestChannel, RequestStatus } from '../../shared/requests';
import { daysInMonth } from './calendar-date';
import { parseInstant } from './clock-input';
import { dayInZone, isoInZone } from './time-zone';
import { headerKey } from './import-mapping';

/** A cell read as a value, or what is wrong with it (said to the DPO with the line's number). */
export type Read<T> = { value: T } | { problem: MessageText };

const shown = (value: string) => (value.length > 60 ? `"${value.slice(0, 60)}…"` : `"${value}"`);

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/;
const YEAR_FIRST = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]+(\d{1,2})[:h](\d{2})(?::(\d{2}))?)?$/;
// Day first, as French (and most European) spreadsheets write it: 03/03/2026, 3.3.2026, 03-03-2026 09h12.
const DAY_FIRST = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[T ,]+(\d{1,2})[:h](\d{2})(?::(\d{2}))?)?$/;

/**
 * A spreadsheet's date, with or without its time, as an ISO 8601 instant: one with its offset is kept as written;
 * one without is a wall-clock time in the register's time zone (a date alone: the start of that day there — the day
 * is what the clock counts from). Month-first dates (03/13/2026) are not read: 03/04 would be ambiguous.
 */
export function readSpreadsheetDate(cell: string, field: string, timeZone: string): Read<string> {
  const text = cell.trim();
  if (ISO_WITH_OFFSET.test(text)) {
    try {
      parseInstant(text, field);
      return { value: text };
    } catch {
      return { problem: msg('requestImport.badDate', { field, value: shown(text) }) };
    }
  }
  const yearFirst = YEAR_FIRST.exec(text);
  const dayFirst = yearFirst ? undefined : DAY_FIRST.exec(text);
  const parts = yearFirst ? [yearFirst[1], yearFirst[2], yearFirst[3], yearFirst[4], yearFirst[5], yearFirst[6]] : dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1], dayFirst[4], dayFirst[5], dayFirst[6]] : undefined;
  const [year, month, day, hour, minute, second] = (parts ?? []).map((part) => Number(part ?? 0)) as number[];
  if (!parts || !(month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth(year!, month!) && hour! <= 23 && minute! <= 59 && second! <= 59)) {
    return { problem: msg('requestImport.badDate', { field, value: shown(text) }) };
  }
  return { value: isoInZone(instantOfWallClock([year!, month!, day!, hour!, minute!, second!], timeZone), timeZone) };
}

/** The day (YYYY-MM-DD) an instant falls on in the register's time zone. */
export function dayOf(instant: string, timeZone: string): string {
  return dayInZone(new Date(instant), timeZone);
}

/**
 * The instant a wall-clock time names in a zone. The zone's offset is looked up at a first guess and again at the
 * result, since a summer-time change may lie between them; a time summer time skips becomes the first instant after.
 */
function instantOfWallClock([year, month, day, hour, minute, second]: number[], timeZone: string): number {
  const asUtc = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const wall = new Date(asUtc).toISOString().slice(0, 19);
  const offsetAt = (ms: number) => {
    const match = /([+-])(\d{2}):(\d{2})$/.exec(isoInZone(ms, timeZone));
    return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) * 60_000 : 0;
  };
  const first = asUtc - offsetAt(asUtc);
  const candidates = [first, asUtc - offsetAt(first)];
  return candidates.find((ms) => isoInZone(ms, timeZone).startsWith(wall)) ?? Math.max(...candidates);
}

/** Several uids in one cell: separated by line breaks, semicolons or commas when it holds one; else by spaces. */
export function readUids(cell: string): string[] {
  const separators = /[\n;,]/.test(cell) ? /[\n;,]+/ : /\s+/;
  return [...new Set(cell.split(separators).map((uid) => uid.trim()).filter((uid) => uid !== ''))];
}

const ACTION_NAMES: Record<RequestAction, readonly string[]> = {
  anonymize: ['anonymize', 'anonymise', 'anonymization', 'anonymisation', 'anonymiser', 'anonymize account'],
  delete: ['delete', 'deletion', 'erase', 'erasure', 'remove', 'supprimer', 'suppression', 'effacer', 'effacement'],
  logout: ['logout', 'log out', 'sign out', 'deconnexion', 'deconnecter', 'se deconnecter'],
};

/** What is asked: one action or several ("anonymise, déconnexion", "delete + logout"). */
export function readActions(cell: string): Read<RequestAction[]> {
  const actions = new Set<RequestAction>();
  for (const word of cell.split(/[,;+/&\n]|\s+(?:and|et)\s+/i)) {
    if (word.trim() === '') continue;
    const action = nameOf(ACTION_NAMES, word);
    if (!action) return { problem: msg('requestImport.badAction', { value: shown(word.trim()) }) };
    actions.add(action);
  }
  return { value: [...actions] };
}

const CHANNEL_NAMES: Record<RequestChannel, readonly string[]> = {
  'e-mail': ['e mail', 'email', 'mail', 'courriel', 'mel'],
  form: ['form', 'web form', 'web', 'website', 'formulaire', 'formulaire web', 'site', 'site web', 'en ligne'],
  letter: ['letter', 'post', 'mail letter', 'courrier', 'lettre', 'courrier postal', 'recommande'],
  phone: ['phone', 'telephone', 'tel', 'call', 'appel'],
  other: ['other', 'autre', 'in person', 'en personne', 'guichet'],
};

/** An empty channel is 'other': an imported request is not claimed to have come by e-mail when nothing says so. */
export function readChannel(cell: string): Read<RequestChannel> {
  if (cell.trim() === '') return { value: 'other' };
  const channel = nameOf(CHANNEL_NAMES, cell);
  return channel ? { value: channel } : { problem: msg('requestImport.badChannel', { value: shown(cell.trim()) }) };
}

const STATUS_NAMES: Record<RequestStatus, readonly string[]> = {
  received: ['received', 'new', 'open', 'to do', 'todo', 'recu', 'recue', 'nouveau', 'nouvelle', 'ouvert', 'ouverte', 'a traiter'],
  'waiting-for-identity': ['waiting for identity', 'waiting', 'identity check', 'pending identity', 'en attente', 'attente', 'en attente d identite', 'attente identite', 'verification d identite'],
  'in-progress': ['in progress', 'in-progress', 'ongoing', 'started', 'en cours', 'en cours de traitement'],
  answered: ['answered', 'done', 'closed', 'completed', 'complete', 'repondu', 'repondue', 'traite', 'traitee', 'clos', 'close', 'cloture', 'cloturee', 'termine', 'terminee', 'fait'],
  refused: ['refused', 'rejected', 'declined', 'refuse', 'refusee', 'rejete', 'rejetee'],
};

/** An empty status is received, or answered when the line gives an answer date. */
export function readStatus(cell: string, answered: boolean): Read<RequestStatus> {
  if (cell.trim() === '') return { value: answered ? 'answered' : 'received' };
  const status = nameOf(STATUS_NAMES, cell);
  return status ? { value: status } : { problem: msg('requestImport.badStatus', { value: shown(cell.trim()) }) };
}

function nameOf<T extends string>(names: Record<T, readonly string[]>, cell: string): T | undefined {
  const key = headerKey(cell);
  return (Object.keys(names) as T[]).find((value) => headerKey(value) === key || names[value].includes(key));
}

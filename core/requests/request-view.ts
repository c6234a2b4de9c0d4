import { msg, wordInEnglish } from '../../shared/messages';
import { CLOSED_STATUSES, requestFilterSchema, type RegisterSettings, type RequestFilter, type RequestView } from '../../shared/requests';
import { searchKey } from '../search-text';
import type { RegisterKeyring } from './register-keyring';
import type { RequestState } from './register-events';
import { requestClock } from './request-clock';
import { dayInZone } from './time-zone';
import { sameDateMonthsLater } from './calendar-date';

/** A request as every front shows it: the clock computed for `now`, the requester opened only when asked. */
export async function viewOf(state: RequestState, settings: RegisterSettings, now: number, keyring: RegisterKeyring, withContact: boolean): Promise<RequestView> {
  const { requester: sealed, ...rest } = state;
  const view: RequestView = {
    ...structuredClone(rest),
    requester: { state: 'none' },
    clock: requestClock(state, settings, now),
  };
  if (state.closedAt) view.purgeOn = sameDateMonthsLater(dayInZone(new Date(state.closedAt), settings.timeZone), 12 * settings.purgeAfterYears);
  if (state.purgedAt) view.requester = { state: 'purged' };
  else if (sealed.name || sealed.contact) {
    if (!withContact) view.requester = { state: 'hidden' };
    else {
      const name = sealed.name ? await keyring.open(state.id, 'name', sealed.name) : undefined;
      const contact = sealed.contact ? await keyring.open(state.id, 'contact', sealed.contact) : undefined;
      view.requester = name === null || contact === null ? { state: 'unreadable', problem: wordInEnglish(msg('requests.unreadable')) } : { state: 'shown' };
      if (name) view.requester.name = name;
      if (contact) view.requester.contact = contact;
    }
  }
  return view;
}

export function matchesRequestFilter(view: RequestView, filterInput: RequestFilter): boolean {
  const filter = requestFilterSchema.parse(filterInput);
  const closed = CLOSED_STATUSES.includes(view.status);
  if (filter.status === 'open' && closed) return false;
  if (filter.status === 'closed' && !closed) return false;
  if (filter.status && filter.status !== 'open' && filter.status !== 'closed' && view.status !== filter.status) return false;
  if (filter.profileId && !view.subjects.some((subject) => subject.profileId === filter.profileId)) return false;
  if (filter.dueWithinDays !== undefined && (closed || view.clock.daysLeft > filter.dueWithinDays)) return false;
  const wanted = filter.text?.trim();
  if (wanted) {
    const haystack = [view.id, view.channel, view.notes, view.refusalGround, view.requester.name, view.requester.contact, ...view.subjects.map((s) => s.uid)];
    const key = searchKey(wanted);
    if (!haystack.some((value) => value !== undefined && searchKey(value).includes(key))) return false;
  }
  return true;
}

/** Open requests by deadline (soonest first), then closed ones, newest closed first. */
export function byDeadline(a: RequestView, b: RequestView): number {
  const aClosed = a.closedAt !== undefined;
  const bClosed = b.closedAt !== undefined;
  if (aClosed !== bClosed) return aClosed ? 1 : -1;
  if (aClosed) return (b.closedAt ?? '').localeCompare(a.closedAt ?? '');
  return a.clock.deadline.localeCompare(b.clock.deadline) || a.id.localeCompare(b.id);
}

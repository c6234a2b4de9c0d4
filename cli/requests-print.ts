import type { RequestView } from '../shared/requests';
import type { CliOutput } from './output';
import { formatTable } from './table';
import { visibleName, visibleUid } from './visible-text';

/** How the CLI prints requests: a table for a list, the whole request for one; JSON as the core gives it. */

/** Days left in words: "in 3 days", "today", "2 days overdue". */
export function daysLeftWords(view: RequestView): string {
  if (view.clock.state === 'closed') return view.status;
  const { daysLeft } = view.clock;
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const when = daysLeft === 0 ? 'due today' : daysLeft > 0 ? `in ${days(daysLeft)}` : `${days(-daysLeft)} OVERDUE`;
  return view.clock.state === 'paused' ? `${when} (clock paused)` : when;
}

export function printRequestTable(out: CliOutput, views: readonly RequestView[]): void {
  if (views.length === 0) {
    out.line('No requests match.');
    return;
  }
  out.line(
    formatTable([...views], [
      { title: 'ID', value: (v) => v.id },
      { title: 'STATUS', value: (v) => v.status },
      { title: 'DEADLINE', value: (v) => v.clock.deadline },
      { title: 'WHEN', value: (v) => daysLeftWords(v) },
      { title: 'RECEIVED', value: (v) => v.receivedAt },
      { title: 'ACTIONS', value: (v) => v.actions.join(', ') },
      { title: 'UIDS', value: (v) => v.subjects.map((s) => visibleUid(s.uid)).join(' '), maxWidth: 40 },
    ]),
  );
  out.line(`${views.length} request${views.length === 1 ? '' : 's'}`);
}

export function printRequest(out: CliOutput, view: RequestView): void {
  const extension = view.extension ? ` (extended on ${view.extension.decidedAt}, person told ${view.extension.personToldAt}: ${view.extension.reason})` : '';
  const lines = [
    `${view.id}  ${view.status}  deadline ${view.clock.deadline} (${daysLeftWords(view)})${extension}`,
    `Received: ${view.receivedAt} by ${view.channel}`,
    `Asked: ${view.actions.join(', ')}`,
    `Uids: ${view.subjects.map((s) => `${visibleUid(s.uid)}${s.profileId ? ` (profile ${s.profileId})` : ''}`).join(', ')}`,
    `Requester: ${requesterWords(view)}`,
    ...(view.notes ? [`Notes: ${view.notes}`] : []),
    ...(view.refusalGround ? [`Refused on the ground: ${view.refusalGround}`] : []),
    ...(view.clock.pausedDays > 0 ? [`Clock paused for ${view.clock.pausedDays} day(s): first period ends ${view.clock.firstDeadline}`] : []),
    ...(view.pauses.length ? [`Pauses: ${view.pauses.map((p) => `${p.from} → ${p.to ?? 'still paused'}`).join('; ')}`] : []),
    ...(view.links.actIds.length ? [`Acts: ${view.links.actIds.join(', ')}`] : []),
    ...(view.links.batchJobIds.length ? [`Batch jobs: ${view.links.batchJobIds.join(', ')}`] : []),
    ...(view.closedAt ? [`Closed: ${view.closedAt}; requester purged on ${view.purgedAt ?? `${view.purgeOn} (planned)`}`] : []),
    'History:',
    ...view.history.map((h) => `  ${h.at}  ${h.by} (${h.via})  ${h.summary}`),
  ];
  for (const line of lines) out.line(line);
}

function requesterWords(view: RequestView): string {
  const { requester } = view;
  switch (requester.state) {
    case 'none':
      return 'not given';
    case 'hidden':
      return 'kept encrypted (add --with-contact to show it)';
    case 'purged':
      return `purged on ${view.purgedAt ?? ''}`;
    case 'unreadable':
      return `cannot be read here: ${requester.problem ?? ''}`;
    case 'shown':
      return [requester.name ? visibleName(requester.name) : '', requester.contact ? visibleName(requester.contact) : ''].filter(Boolean).join(', ');
  }
}

/** The JSON of a request: the core's view, with `deadline` on top for scripts (`requests add --json | jq .deadline`). */
export function requestJson(view: RequestView): RequestView & { deadline: string } {
  return { ...view, deadline: view.clock.deadline };
}

import { stringify } from 'csv-stringify/sync';
import type { RequestExport, RequestExportFormat, RequestView } from '../../shared/requests';
import { neutraliseCell } from '../audit-export';

/**
 * The register exported: CSV (every cell formula-safe, as the audit export makes them) or JSON. The requester's name
 * and contact are in it only when asked for (the views then hold them); otherwise the columns stay, empty.
 */
export const REQUESTS_CSV_COLUMNS = ['id', 'receivedAt', 'channel', 'actions', 'uids', 'status', 'deadline', 'daysLeft', 'clock', 'extendedOn', 'extensionReason', 'pausedDays', 'refusalGround', 'actIds', 'batchJobIds', 'closedAt', 'purgeOn', 'purgedAt', 'requesterName', 'requesterContact', 'notes'] as const;
export const REQUESTS_EXPORT_FORMAT = 'privacy-desk-requests-export/1';

export function buildRequestExport(views: readonly RequestView[], format: RequestExportFormat, exportedAt: string): RequestExport {
  const stamp = exportedAt.slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  if (format === 'csv') {
    const rows = views.map((view) => csvRow(view).map((cell) => neutraliseCell(cell)));
    const content = stringify([[...REQUESTS_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
    return { fileName: `privacy-desk-requests-${stamp}.csv`, mimeType: 'text/csv;charset=utf-8', content, count: views.length };
  }
  const document = { format: REQUESTS_EXPORT_FORMAT, exportedAt, requests: views };
  return { fileName: `privacy-desk-requests-${stamp}.json`, mimeType: 'application/json', content: `${JSON.stringify(document, null, 2)}\n`, count: views.length };
}

function csvRow(view: RequestView): string[] {
  return [
    view.id,
    view.receivedAt,
    view.channel,
    view.actions.join(' '),
    view.subjects.map((subject) => (subject.profileId ? `${subject.uid} (${subject.profileId})` : subject.uid)).join('\n'),
    view.status,
    view.clock.deadline,
    String(view.clock.daysLeft),
    view.clock.state,
    view.extension?.decidedAt ?? '',
    view.extension?.reason ?? '',
    String(view.clock.pausedDays),
    view.refusalGround ?? '',
    view.links.actIds.join(' '),
    view.links.batchJobIds.join(' '),
    view.closedAt ?? '',
    view.purgeOn ?? '',
    view.purgedAt ?? '',
    view.requester.name ?? '',
    view.requester.contact ?? '',
    view.notes ?? '',
  ];
}

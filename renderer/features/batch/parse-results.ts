import { BATCH_RESULT_OUTCOMES, type BatchResultOutcome, type BatchResultRow } from '../../../shared/batch';

const OUTCOMES = new Set<string>(BATCH_RESULT_OUTCOMES);

/**
 * The rows of batch.results in JSON: an array of rows, or an object holding them (`rows`, `items`
 * or `results`). A row that is not a row is dropped rather than shown half-formed.
 */
export function parseResultRows(content: string): BatchResultRow[] {
  const parsed: unknown = JSON.parse(content);
  const list = Array.isArray(parsed) ? parsed : findList(parsed);
  return list.flatMap((value) => {
    const row = toRow(value);
    return row ? [row] : [];
  });
}

function findList(value: unknown): unknown[] {
  if (!value || typeof value !== 'object') return [];
  for (const key of ['rows', 'items', 'results']) {
    const candidate = (value as Record<string, unknown>)[key];
    if (Array.isArray(candidate)) return candidate;
  }
  return [];
}

function toRow(value: unknown): BatchResultRow | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  if (typeof record.uid !== 'string' || typeof record.outcome !== 'string' || !OUTCOMES.has(record.outcome)) return null;
  return {
    line: typeof record.line === 'number' ? record.line : 0,
    uid: record.uid,
    ...(typeof record.pastedUid === 'string' && record.pastedUid ? { pastedUid: record.pastedUid } : {}),
    outcome: record.outcome as BatchResultOutcome,
    ...(typeof record.reference === 'string' && record.reference ? { reference: record.reference } : {}),
    ...(typeof record.status === 'number' ? { status: record.status } : {}),
    ...(typeof record.requestId === 'string' && record.requestId ? { requestId: record.requestId } : {}),
    ...(typeof record.reason === 'string' && record.reason ? { reason: record.reason } : {}),
    ...(typeof record.at === 'string' && record.at ? { at: record.at } : {}),
  };
}

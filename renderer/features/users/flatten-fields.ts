/** One leaf of a user record, addressed by its path ("level.name") and shown as "level › name". */
export interface FlatField {
  path: string;
  label: string;
  value: unknown;
}

const MAX_DEPTH = 6;

/**
 * Flattens the service's user record for people: nested objects become
 * "parent › child" rows, arrays of plain values stay one row, arrays of
 * objects get an index ("badges › 1 › name"). Never raw JSON.
 */
export function flattenFields(fields: Record<string, unknown>): FlatField[] {
  const out: FlatField[] = [];
  const walk = (value: unknown, path: string[], depth: number) => {
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    const isObjectArray = Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null);
    if (depth < MAX_DEPTH && isObject && Object.keys(value).length > 0) {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key], depth + 1);
      return;
    }
    if (depth < MAX_DEPTH && isObjectArray) {
      (value as unknown[]).forEach((item, index) => walk(item, [...path, String(index + 1)], depth + 1));
      return;
    }
    out.push({ path: path.join('.'), label: path.join(' › '), value });
  };
  for (const [key, value] of Object.entries(fields)) walk(value, [key], 1);
  return out;
}

/** Reads a flattened path back out of a record (for optional table columns). */
export function valueAtPath(fields: Record<string, unknown>, path: string): unknown {
  return flattenFields(fields).find((field) => field.path === path)?.value;
}

/** The record's fields already shown by the fixed columns; the column chooser offers the rest. */
export const FIXED_COLUMN_FIELDS = new Set(['uid', 'full_name', 'email', 'created_at', 'messages_count', 'votes_count']);

export function optionalFieldPaths(records: { fields: Record<string, unknown> }[]): { path: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const record of records) {
    for (const field of flattenFields(record.fields)) {
      if (!FIXED_COLUMN_FIELDS.has(field.path) && !seen.has(field.path)) seen.set(field.path, field.label);
    }
  }
  return [...seen.entries()].map(([path, label]) => ({ path, label })).sort((a, b) => a.path.localeCompare(b.path));
}

import type { UserRecord } from '../shared/users';

/**
 * Normalises one user as the service sent it (docs/SERVICE-API.md#user-record: any field may be
 * missing or null, unknown fields may appear, first/last name may replace
 * full_name) into what the table shows. `fields` keeps the record untouched.
 */
export function normalizeUser(raw: Record<string, unknown>): UserRecord {
  return {
    uid: text(raw.uid),
    fullName: fullNameOf(raw),
    email: text(raw.email),
    createdAt: dateText(raw.created_at),
    messagesCount: count(raw.messages_count),
    votesCount: count(raw.votes_count),
    fields: raw,
  };
}

function fullNameOf(raw: Record<string, unknown>): string | null {
  const full = text(raw.full_name);
  if (full !== null && full.trim() !== '') return full;
  const parts = [text(raw.first_name), text(raw.last_name)].filter((part): part is string => part !== null && part.trim() !== '');
  if (parts.length > 0) return parts.join(' ');
  return full;
}

/** Strings stay as they are; numbers (a numeric uid) become their decimal text; anything else is absent. */
function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function dateText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  // Some serialisers send Unix seconds; show them as ISO 8601 like the rest.
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value * 1000).toISOString();
  return null;
}

function count(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  return null;
}

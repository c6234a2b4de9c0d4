import type { TFunction } from 'i18next';

const ACRONYMS = new Set(['id', 'url', 'ip', 'uid', 'api']);

/** "icon_url" → "Icon URL", "lastActivity" → "Last activity": a readable name for a field the service added. */
export function humanizeSegment(segment: string): string {
  const words = segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The name the operator sees for a field path ("level.icon_url"): the translated name of a known field,
 * otherwise each part made readable ("Level: Icon URL"). Never the raw path.
 */
export function fieldName(path: string, t: TFunction): string {
  const key = `users.fieldNames.${path.replace(/\./g, '__')}`;
  const known = t(key, { defaultValue: '' });
  if (known) return known;
  return path.split('.').map(humanizeSegment).join(': ');
}

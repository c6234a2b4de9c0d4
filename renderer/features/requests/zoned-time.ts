/**
 * Wall-clock times in the register's time zone (its settings), whatever this computer's zone: the DPO types the
 * time a ticket arrived as their register counts days. A datetime-local value (YYYY-MM-DDTHH:mm) ↔ an ISO 8601
 * instant with that zone's offset at that moment.
 */
const partsFormats = new Map<string, Intl.DateTimeFormat>();

function wallParts(ms: number, zone: string): Record<string, number> {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partsFormats.set(zone, format);
  }
  return Object.fromEntries(format.formatToParts(new Date(ms)).filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
}

/** The zone's offset from UTC at an instant, in minutes (Paris in winter: 60). */
function offsetMinutes(ms: number, zone: string): number {
  const p = wallParts(ms, zone);
  return Math.round((Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Now (or `ms`) as a datetime-local value in the zone. */
export function wallTimeIn(zone: string, ms = Date.now()): string {
  const p = wallParts(ms, zone);
  return `${p.year}-${pad(p.month!)}-${pad(p.day!)}T${pad(p.hour!)}:${pad(p.minute!)}`;
}

/** A datetime-local value read in the zone, as an ISO instant with the zone's offset; undefined when it is not a time. */
export function instantOf(wallTime: string, zone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wallTime);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the guessed instant, then again at the corrected one (a change of offset between the two).
  let offset = offsetMinutes(asUtc, zone);
  offset = offsetMinutes(asUtc - offset * 60_000, zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

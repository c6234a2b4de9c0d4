import type pg from 'pg';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { AuditEntry } from '../../shared/audit';
import type { CredentialStore } from '../credential-store';
import { sha256Hex } from '../audit-chain';
import { isoWithOffset } from '../local-time';
import { localKeyStorage } from '../requests/register-crypto';
import type { RegisterLine } from '../requests/register-event-log';
import { openRegisterFile } from '../requests/register-file';
import { unwrapDataKey, wrapDataKey } from '../requests/register-keyring';
import { readRegisterSettings } from '../requests/register-settings';
import { parseRegisterEvent, registerAuditEntry, type RegisterAudit } from '../requests/request-store-core';
import { holdingRegisterLock, insertEvents } from './pg-register-events';
import { pgKeyStorage } from './pg-register-keys';
import { pgRegisterSettings } from './pg-register-settings';
import { teamStoreError, type TeamDatabase } from './team-database';

export interface RegisterImportOptions {
  /** The data folder whose register (requests.jsonl, requests-keys.json, requests-settings.json) moves to the team. */
  dataDir: string;
  /** The keychain holding the data folder's register key (without it, the requesters cannot be moved: counted). */
  keyStore: () => Promise<CredentialStore>;
  db: TeamDatabase;
  /** The team's audit trail (AuditStore), where the imported events are vouched for. */
  audit: RegisterAudit & { appendMany?(entries: readonly AuditEntry[]): Promise<void> };
  operator: string;
  via: 'cli' | 'app';
  appVersion: string;
  now?: () => number;
}

export interface RegisterImportResult {
  /** Events copied, exactly as stored (their SHA-256 unchanged). */
  events: number;
  requests: number;
  /** Requests whose data key was moved (their requester readable by the team). */
  keysMoved: number;
  /** Data keys this computer's keychain could not open (their requesters stay unreadable). */
  keysUnreadable: number;
  /** The folder's settings became the team's (false: the team had saved its own, which are kept). */
  settingsCopied: boolean;
  /** Audit entries written for events the team trail did not vouch for yet (0 when the local trail, imported first, already does). */
  auditEntries: number;
}

/**
 * Moves a data folder's register into the team database (`team import`), only into an empty team register, so the
 * request numbers and the events stay as the folder's audit trail vouched for them. The events are copied in order,
 * unchanged; each request's data key is unwrapped with the folder's key and wrapped with the team's. Then every event
 * must have its audit entry in the team chain: when the local trail was imported first, its 'request' entries already
 * vouch for the events and nothing is added; otherwise an entry is written for each event not yet vouched for.
 * All under the team register's lock, so no desktop's change comes between.
 */
export async function importLocalRegister(options: RegisterImportOptions): Promise<RegisterImportResult> {
  const { db, audit } = options;
  const now = options.now ?? Date.now;
  const file = openRegisterFile(options.dataDir);
  const lines = await file.locked(() => file.read());
  // Every line is read before anything is written: a damaged register is refused as a whole.
  const events = lines.map((line) => parseRegisterEvent(line, file));
  const numbered: RegisterLine[] = lines.map((line, index) => ({ line: index + 1, text: line.text }));
  const localKeys = localKeyStorage(options.dataDir, options.keyStore);
  const folderSettings = await readRegisterSettings(options.dataDir);
  const teamSettings = pgRegisterSettings(db, { operator: options.operator });

  // A folder without a register has nothing to import, whatever the team holds.
  if (events.length === 0) return { events: 0, requests: 0, keysMoved: 0, keysUnreadable: 0, settingsCopied: false, auditEntries: 0 };

  return holdingRegisterLock(db, async (client) => {
    refuseUnlessEmpty(db, await eventsHeld(client));

    const requests = [...new Set(events.map((event) => event.request))];
    const wrapped = await localKeys.readAll();
    const folderKey = Object.keys(wrapped).length > 0 ? await localKeys.registerKey(false).catch(() => null) : null;
    const teamKeys = pgKeyStorage(db);
    const teamKey = Object.keys(wrapped).length > 0 ? await teamKeys.registerKey(true) : null;
    let keysMoved = 0;
    let keysUnreadable = 0;
    for (const [requestId, kept] of Object.entries(wrapped)) {
      const dataKey = folderKey && teamKey ? unwrapDataKey(folderKey, requestId, kept) : null;
      if (!dataKey || !teamKey) {
        keysUnreadable++;
        continue;
      }
      await teamKeys.saveDataKey(requestId, wrapDataKey(teamKey, requestId, dataKey));
      keysMoved++;
    }

    await insertEvents(client, numbered, { operator: options.operator, desktop: db.desktop });
    const settingsCopied = !(await teamSettings.saved());
    if (settingsCopied) await teamSettings.save(folderSettings);

    // The team trail's 'request' entries that already vouch for the first events (the local trail imported first).
    const trail = (await audit.read()).entries;
    const vouched = vouchedPrefix(numbered, trail);
    const at = isoWithOffset(new Date(now()));
    const missing = events.slice(vouched).map((event, index) => ({
      ...registerAuditEntry(event, (numbered[vouched + index] as RegisterLine).text, { operator: options.operator, via: options.via, appVersion: options.appVersion }),
      at,
    }));
    if (missing.length > 0) await (audit.appendMany ? audit.appendMany(missing) : missing.reduce((done, entry) => done.then(() => audit.append(entry)), Promise.resolve()));
    return { events: events.length, requests: requests.length, keysMoved, keysUnreadable, settingsCopied, auditEntries: missing.length };
  });
}

/** How many of the first events the trail's 'request' entries vouch for, in order (each the SHA-256 of the event's text). */
function vouchedPrefix(lines: readonly RegisterLine[], trail: readonly AuditEntry[]): number {
  const refs = trail.filter((entry) => entry.action === 'request' && entry.register).map((entry) => entry.register?.sha256);
  let count = 0;
  while (count < lines.length && refs[count] === sha256Hex((lines[count] as RegisterLine).text)) count++;
  return count;
}

/**
 * Before anything of the folder is imported (its trail first): whether its register could be imported. Called by
 * `team import` ahead of the trail, because the trail's 'request' entries vouch for the folder's events, and a trail
 * imported without its register would leave the team's register check broken for good. Throws teamRegister.notEmpty.
 */
export async function checkRegisterImportable(db: TeamDatabase, dataDir: string): Promise<void> {
  const file = openRegisterFile(dataDir);
  if ((await file.read()).length === 0) return;
  let held: number;
  try {
    held = await eventsHeld(db.pool);
  } catch (error) {
    throw teamStoreError(db.where, error, 'connect');
  }
  refuseUnlessEmpty(db, held);
}

const eventsHeld = async (client: Pick<pg.Pool, 'query'>): Promise<number> => Number((await client.query<{ count: string }>('SELECT count(*) AS count FROM register_events')).rows[0]?.count ?? 0);

function refuseUnlessEmpty(db: TeamDatabase, held: number): void {
  if (held > 0) throw new PrivacyDeskError({ code: 'INVALID_INPUT', outcome: 'not-sent', text: msg('teamRegister.notEmpty', { where: db.where, count: held }) });
}

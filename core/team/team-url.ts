import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';

/** Where the team database is: what `team connect --database-url` names, never with a password in it. */
export interface TeamDatabaseAddress {
  host: string;
  port: number;
  user: string;
  database: string;
  /** TLS with the server's certificate checked; off only for a server on this computer (loopback). */
  tls: boolean;
  /** The address as shown and stored: postgres://USER@HOST:PORT/DB (with ?sslmode=disable when TLS is off). */
  display: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Reads a postgres:// address and holds it to the rules: no password in it (it goes to the keychain), a user and a
 * database named, and TLS unless the server is on this computer. Refused before any connection is tried.
 */
export function parseTeamDatabaseUrl(text: string): TeamDatabaseAddress {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw invalidInput(msg('team.url.bad', { url: text.slice(0, 200) }));
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw invalidInput(msg('team.url.bad', { url: text.slice(0, 200) }));
  if (url.password) throw invalidInput(msg('team.url.password'));
  const user = decodeURIComponent(url.username);
  if (!user) throw invalidInput(msg('team.url.noUser'));
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) throw invalidInput(msg('team.url.noDatabase'));
  const host = url.hostname;
  if (!host) throw invalidInput(msg('team.url.bad', { url: text.slice(0, 200) }));
  const port = url.port ? Number(url.port) : 5432;
  const mode = url.searchParams.get('sslmode');
  const loopback = isLoopbackHost(host);
  if (mode !== null && !['disable', 'require', 'verify-full'].includes(mode)) throw invalidInput(msg('team.url.sslMode', { mode: mode.slice(0, 40) }));
  if (mode === 'disable' && !loopback) throw invalidInput(msg('team.url.tlsRequired', { host, mode }));
  // On this computer the default is a plain connection (a local server seldom has a certificate); elsewhere always TLS.
  const tls = loopback ? mode === 'require' || mode === 'verify-full' : true;
  const display = `postgres://${encodeURIComponent(user)}@${url.host}/${encodeURIComponent(database)}${loopback && tls ? '?sslmode=verify-full' : ''}`;
  return { host: host.replace(/^\[|\]$/g, ''), port, user, database, tls, display };
}

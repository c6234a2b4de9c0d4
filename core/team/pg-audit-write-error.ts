import { PrivacyDeskError } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import { AuditWriteError } from '../audit-write-error';

// Codes of the server or the socket that mean the database is not there (as opposed to refusing a write):
// connection exceptions (08xxx), the server shutting down or starting (57P01-57P03), the socket's own errors.
const GONE_CODES = /^(08|57P0[123]$|ECONN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)/;
const GONE_WORDS = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i;

/** The driver's error under a PrivacyDeskError teamStoreError made, or the error itself. */
const rootOf = (error: unknown): unknown => (error instanceof PrivacyDeskError && error.cause !== undefined ? error.cause : error);

/**
 * The team database could not record an entry: the same parts as a full disk (where, why, what to do), so the gate
 * words every ending the same way (core/service/audit-record.ts), with TEAM_STORE_UNAVAILABLE as the code: an act
 * whose 'attempted' entry could not be committed is not sent.
 */
export function teamAuditWriteError(where: string, error: unknown): AuditWriteError {
  if (error instanceof AuditWriteError) return error;
  const root = rootOf(error);
  const code = (root as { code?: unknown } | null)?.code;
  const text = root instanceof Error ? root.message : String(root);
  const why = (typeof code === 'string' ? code : text.replace(/\s+/g, ' ').slice(0, 160)) || 'no reason given';
  let reason: MessageText;
  let fix: MessageText;
  if (typeof code === 'string' && /^28/.test(code)) {
    reason = msg('team.why.refused', { why });
    fix = msg('team.fix.login');
  } else if ((typeof code === 'string' && GONE_CODES.test(code)) || GONE_WORDS.test(text) || isConnectFailure(error)) {
    reason = msg('team.why.unreachable', { why });
    fix = msg('team.fix.reach');
  } else {
    reason = msg('team.why.notCommitted', { why });
    fix = msg('team.fix.reach');
  }
  return new AuditWriteError(where, reason, fix, typeof code === 'string' ? code : undefined, root, 'TEAM_STORE_UNAVAILABLE');
}

/** teamStoreError's own verdict that the connection could not even be made. */
function isConnectFailure(error: unknown): boolean {
  return error instanceof PrivacyDeskError && error.text?.id === 'team.unreachable';
}

/** The team database could not be read (a verify, a reading, a list): said as such, never as an act not sent. */
export function teamReadError(where: string, error: unknown): PrivacyDeskError {
  if (error instanceof PrivacyDeskError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' ? code : error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 160) : String(error);
  return new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('team.readFailed', { where, why }) }, { cause: error });
}

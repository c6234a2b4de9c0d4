import { CommanderError } from 'commander';
import { ActRecordError } from '../core/audit-write-error';
import { toErrorInfo, type ErrorCode, type Outcome } from '../shared/errors';
import { API_KEY_ENV, API_SECRET_ENV } from './connection';
import type { CliOutput } from './output';

/** Exit codes are part of the CLI's contract (README.md, "The CLI"). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_OUTCOME_UNKNOWN = 3;
/** The act happened (done, or refused) but the audit trail could not record its outcome. */
export const EXIT_OUTCOME_NOT_RECORDED = 4;

export const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  failed: refused by the service, an error, or a check that found a problem
     (token verify: the token is not valid — checked locally, nothing is sent;
     audit verify: the trail is broken; logout --negative: the service
     ACCEPTED the broken token)
  2  usage or validation error: nothing was sent
  3  anonymize, delete or logout: the outcome is UNKNOWN (the request may have
     reached the service); check the user before trying again
     (logout --negative: INCONCLUSIVE — the service did not judge the token:
     no answer, a 5xx, a 429, an unknown application; send it again)
  4  anonymize, delete, logout or a batch: the service answered a request of
     the act (the logout sent first, the erasure, the check afterwards; done or
     refused) but the audit trail could not record how (disk full…); do not
     repeat the act, note that outcome by hand and free the disk; "audit list"
     shows the request as "outcome not recorded"

A failure prints "CODE: message" on stderr; for anonymize, delete and logout
an "Outcome:" line follows. With --json, results go to stdout, and a failure
before any result prints {"error": {"code", "outcome", "message", ...}} there
(a usage error, such as an unknown option, only prints on stderr).`;

// The operator asked for something invalid (nothing was sent): usage-class errors.
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set(['INVALID_INPUT', 'CONFIRMATION_MISMATCH', 'PROFILE_NOT_FOUND']);

export const OUTCOME_WORDS: Record<Outcome, string> = {
  'not-sent': 'not sent — nothing reached the service.',
  refused: 'refused by the service — nothing was changed.',
  done: 'done — the service carried it out; do not repeat it.',
  unknown: 'UNKNOWN — the request may have reached the service and taken effect. Check the user before repeating an erasure; a logout can safely be sent again.',
};

/** What the failed run was: an irreversible act, whether --json was asked for, and whether it connected with --base-url/--app. */
export interface FailedRun {
  act: boolean;
  json: boolean;
  temporaryConnection?: boolean;
}

// Failures whose advice is "check the address or the keys": with --base-url there is no profile to check.
const CONNECTION_CODES: ReadonlySet<ErrorCode> = new Set(['INVALID_CREDENTIALS', 'INSUFFICIENT_SCOPE', 'UNAUTHORIZED', 'APPLICATION_NOT_FOUND', 'UNEXPECTED_RESPONSE']);

/** Prints `CODE: message` (and for an act its outcome) on stderr and returns the exit code. */
export function reportFailure(error: unknown, out: CliOutput, run: FailedRun): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE; // commander already printed it
  const info = toErrorInfo(error);
  const extras = [info.status !== undefined ? `status ${info.status}` : '', info.requestId ? `request id ${info.requestId}` : ''].filter(Boolean);
  out.note(`${info.code}: ${info.message}${extras.length ? ` (${extras.join(', ')})` : ''}`);
  if (run.temporaryConnection && CONNECTION_CODES.has(info.code)) {
    out.note(`This command used no profile: the service address is the --base-url value, the application name the --app value, and the keys come from ${API_KEY_ENV} and ${API_SECRET_ENV}.`);
  }
  const record = error instanceof ActRecordError ? error : undefined;
  if (run.act) out.note(`Outcome: ${record?.logoutSent !== undefined ? afterLogoutWords(record) : OUTCOME_WORDS[info.outcome]}`);
  if (run.json && !out.wroteResult) out.json({ error: info });
  if (USAGE_CODES.has(info.code)) return EXIT_USAGE;
  // An outcome the audit trail lacks: in the app it is kept and written once the trail can be; a command ends first.
  const unrecorded = record?.unrecorded?.outcome ?? (info.code === 'AUDIT_WRITE_FAILED' && (info.outcome === 'done' || info.outcome === 'refused') ? info.outcome : undefined);
  if (run.act && unrecorded !== undefined) {
    out.note('This command ends now, so what the audit trail could not record is not written later: note it by hand. "privacy-desk audit list" shows the request as "outcome not recorded".');
    if (unrecorded === 'done' || unrecorded === 'refused') return EXIT_OUTCOME_NOT_RECORDED;
  }
  return run.act && (info.outcome === 'unknown' || unrecorded === 'unknown') ? EXIT_OUTCOME_UNKNOWN : EXIT_FAILED;
}

const NOUN = { anonymize: 'anonymisation', delete: 'deletion' } as const;

/** An erasure stopped by the audit trail after its logout step was sent: "nothing reached the service" would be false. */
function afterLogoutWords(record: ActRecordError): string {
  const erasure = record.action ? `the ${NOUN[record.action]}` : 'the erasure';
  const logout = `the logout sent before it did (${record.logoutSent})`;
  return `not sent — ${erasure} did not reach the service; ${logout}, and ${record.unrecorded ? 'the audit trail lacks its outcome' : 'that is recorded'}.`;
}

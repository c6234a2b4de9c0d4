import { ACTION_WORDS } from '../core/action-words';
import type { ErasureResult } from '../shared/users';
import type { CliOutput } from './output';
import { escapeInvisible } from './visible-text';

/**
 * Prints an erasure's steps in order: the logout sent first, the erasure, the check afterwards.
 * What went as intended is a result line (stdout); what did not is a warning (stderr), so a script
 * reading stdout sees the result and an operator watching the terminal sees what to check.
 */
export function printErasureSteps(out: CliOutput, result: ErasureResult, profileName: string, json: boolean): void {
  const words = ACTION_WORDS[result.action];
  const { logout } = result;
  const logoutLine = logout && logout.outcome === 'done' ? `Ended the user’s sessions first (logout accepted, status ${logout.status ?? 'unknown'}).` : undefined;
  if (logout && !logoutLine) {
    const why = [logout.status !== undefined ? `status ${logout.status}` : undefined, logout.errorCode].filter(Boolean).join(', ');
    out.note(
      `Warning: the logout sent first was ${logout.outcome === 'refused' ? 'refused' : logout.outcome === 'not-sent' ? 'not sent' : 'of unknown outcome'}${why ? ` (${why})` : ''}; the ${result.action === 'anonymize' ? 'anonymisation' : 'deletion'} went ahead as confirmed. ` +
        (result.action === 'anonymize' ? 'The user’s sessions may outlive the anonymisation: ask the service’s administrators to end them.' : 'A deleted user’s sessions end with the account.'),
    );
  }
  const verificationLine = result.verification === 'verified' ? `Verified: the old uid no longer resolves (repeating the ${words.verb} answered ${result.verificationStatus ?? 404}).` : undefined;
  if (result.verification === 'not-verified') {
    out.note(`Warning: not verified — the old uid still resolved after the ${words.verb} answered done (repeating it answered ${result.verificationStatus ?? 'a success'}). Check the user on the service.`);
  } else if (result.verification === 'could-not-check') {
    out.note(`Warning: could not check that the old uid no longer resolves${result.verificationStatus !== undefined ? ` (status ${result.verificationStatus})` : ''}. The ${words.verb} itself answered done; check the user on the service.`);
  }
  if (json) return out.json(result);
  if (logoutLine) out.line(logoutLine);
  out.line(`${words.Done} user “${escapeInvisible(result.uid)}” in ${profileName} (status ${result.status}${result.requestId ? `, request id ${result.requestId}` : ''}).`);
  if (verificationLine) out.line(verificationLine);
}

import { Command, Option } from 'commander';
import { judgeLogout, LOGOUT_ALGORITHMS, NEGATIVE_CASES, type LogoutOptions, type LogoutResult, type NegativeCase, type LogoutAlgorithm } from '../../shared/logout';
import { logoutRefusal } from '../../core/service/erasure-gate';
import { isPrivacyDeskError, toErrorInfo, type Outcome, type PrivacyDeskError } from '../../shared/errors';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import { noteLiveData } from '../live-data';
import { markIrreversible, type CliContext } from '../context';
import { EXIT_FAILED, EXIT_OUTCOME_UNKNOWN, reportFailure } from '../exit-codes';
import type { CliOutput } from '../output';
import { parseClaim, parseWholeNumber } from '../parse';
import { logoutConformanceCommand } from './logout-conformance';

interface LogoutFlags extends ConnectionOptions {
  uid?: string;
  aud?: string;
  alg: LogoutAlgorithm;
  exp?: string;
  claim: string[];
  events?: boolean;
  negative?: NegativeCase;
  reference?: string;
  json?: boolean;
  showToken?: boolean;
}

export function logoutCommand(context: CliContext): Command {
  const { io, out } = context;
  const command = addConnectionOptions(
    new Command('logout')
      .argument('[uid]', 'the user whose sessions end (or --uid, for a uid spelled like a subcommand: conformance)')
      .option('--uid <uid>', 'the user whose sessions end, given as an option')
      .description('send a back-channel logout (a JWT signed with the secret key) that ends every session of the user')
      .option('--aud <audience>', 'aud claim (default: the application name)')
      .addOption(new Option('--alg <alg>', 'signing algorithm').choices(LOGOUT_ALGORITHMS).default('HS256'))
      .option('--exp <seconds>', 'add an exp claim this many seconds after iat')
      .option('--claim <key=value>', 'extra claim (value parsed as JSON when it parses); repeatable', (v: string, all: string[]) => [...all, v], [])
      .option('--events', 'add the OIDC back-channel logout events claim')
      .addOption(new Option('--negative <case>', 'send a deliberately broken token the service must refuse').choices(NEGATIVE_CASES))
      .option('--reference <ref>', 'ticket or request number, kept in the audit trail')
      .option('--show-token', 'also print the signed token (for a live service its signature is always withheld)')
      .option('--json', 'print the full result as JSON on stdout, the token included'),
  );
  // `logout conformance …` is a subcommand: its options are its own (positional), and no implicit `help` hides a uid.
  command.enablePositionalOptions().helpCommand(false).addCommand(logoutConformanceCommand(context));
  return markIrreversible(command).action(async (positional: string | undefined, opts: LogoutFlags) => {
    // Exactly one of the two: a uid named twice, or not at all, is a usage error before anything is sent.
    if ((positional === undefined) === (opts.uid === undefined)) command.error(positional === undefined ? "error: missing the user's uid (logout UID, or logout --uid UID)" : 'error: the uid is given twice (as an argument and with --uid): give it once');
    const uid = (opts.uid ?? positional) as string;
    const options: LogoutOptions = { algorithm: opts.alg, includeEvents: opts.events === true, extraClaims: Object.fromEntries(opts.claim.map(parseClaim)) };
    if (opts.aud !== undefined) options.audience = opts.aud;
    if (opts.exp !== undefined) options.expiresInSeconds = parseWholeNumber(opts.exp, '--exp');
    if (opts.negative !== undefined) options.negativeCase = opts.negative;
    const { desk, profileId } = await resolveConnection(opts, io.env);
    noteLiveData(out, (await desk.getProfile(profileId)).baseUrl);
    const negative = opts.negative;
    let result: LogoutResult;
    try {
      result = await desk.sendLogout(profileId, uid, options, opts.reference);
    } catch (error) {
      // No answer (a refused or cut connection, a timeout, TLS, no token): the broken token was never judged.
      if (negative === undefined || !isPrivacyDeskError(error) || NOT_A_TEST_RESULT.has(error.code)) throw error;
      if (opts.json) out.json({ verdict: 'inconclusive', error: toErrorInfo(error) });
      else out.line(inconclusiveLine(negative));
      reportFailure(error, out, { act: true, json: opts.json === true });
      context.exitCode = EXIT_OUTCOME_UNKNOWN;
      return;
    }
    const refusal = logoutRefusal(result);
    const judged = negative !== undefined ? judgeLogout(negative, result) : undefined;
    const verdict = judged ? NEGATIVE_VERDICT_WORDS[judged.verdict] : undefined;
    if (opts.json) out.json(judged ? { ...result, verdict, answer: judged.answer } : result);
    else printResult(out, result, opts.showToken === true);
    if (verdict === 'refused-as-expected') {
      if (!opts.json) out.line(`Verdict:  refused as expected — the service refused the broken token (${negative}).`);
      return;
    }
    if (verdict === 'accepted') {
      out.note(`Verdict: ACCEPTED — the service did not refuse a broken token (${negative}): it answered ${result.status} and treated it as a valid logout. Report this to the service's administrators.`);
      context.exitCode = EXIT_FAILED;
      return;
    }
    if (verdict === 'inconclusive' && judged?.answer === 'says-failed' && refusal) {
      // Answered, and the body contradicts the status: the same answer would come again, so no advice to resend.
      if (!opts.json) out.line(saysFailedLine(result.status, refusal));
      if (refusal.quote?.from === 'service') out.note(`The service said: “${refusal.quote.text}”.`);
      out.note(`Outcome: ${result.status} with a body that says it failed — whether the user’s sessions ended is unknown.`);
      context.exitCode = EXIT_OUTCOME_UNKNOWN;
      return;
    }
    if (verdict === 'inconclusive' && negative !== undefined && refusal) {
      // A 5xx, a 429, an unknown application, an unreadable answer: answered, but not a judgement of the token.
      if (!opts.json) out.line(inconclusiveLine(negative));
      reportFailure(refusal, out, { act: true, json: opts.json === true });
      context.exitCode = EXIT_OUTCOME_UNKNOWN;
      return;
    }
    if (refusal) throw refusal;
  });
}

/** Failures that are the operator's input or the audit trail, not the service's answer: reported as such, not as a test verdict. */
const NOT_A_TEST_RESULT: ReadonlySet<string> = new Set(['INVALID_INPUT', 'CONFIRMATION_MISMATCH', 'PROFILE_NOT_FOUND', 'AUDIT_WRITE_FAILED']);

/**
 * A negative case is a test the service passes by refusing (shared/logout.ts logoutVerdict): a refusal of the token
 * is the expected answer, an acceptance the failure, and anything that is not a judgement of the token inconclusive
 * (exit 3, like an unknown outcome: run it again once the service answers). The JSON words are part of the CLI's output.
 */
const NEGATIVE_VERDICT_WORDS = { 'as-expected': 'refused-as-expected', 'not-as-expected': 'accepted', inconclusive: 'inconclusive' } as const;

function inconclusiveLine(negative: NegativeCase): string {
  return `Verdict:  INCONCLUSIVE — the service did not judge the broken token (${negative}): this says nothing about its token checks. Send it again once the service answers.`;
}

/** A negative case whose 2xx answer says, in its body, that the logout failed or was refused (shared/logout.ts 'says-failed'). */
function saysFailedLine(status: number, refusal: PrivacyDeskError): string {
  const sign = (refusal.text?.params as { sign?: unknown } | undefined)?.sign;
  const which = typeof sign === 'string' ? ` (${sign})` : '';
  return `Verdict:  INCONCLUSIVE — the service’s answer says the logout failed or was refused${which}, but with HTTP ${status}, a status that says success: whether the user’s sessions ended cannot be told from the answer, and sending it again gets the same answer. Ask the service’s administrators how it answers a logout it refuses; on the sandbox, GET /sandbox/users/{uid} shows the session count.`;
}

const STATUS_WORDS: Record<Outcome, string> = {
  // The service answers 200 whether or not a user has the uid (it does not reveal who exists).
  done: 'accepted — the service answers this whether or not a user has this uid: if one does, their sessions are ended; it does not show that the uid exists',
  refused: 'refused',
  unknown: 'outcome unknown: the sessions may or may not have ended',
  'not-sent': 'not sent',
};

function printResult(out: CliOutput, result: LogoutResult, showToken: boolean): void {
  out.line(`Status:   ${result.status} (${STATUS_WORDS[result.outcome]})`);
  out.line(`Answer:   ${typeof result.body === 'string' ? result.body || '(empty)' : JSON.stringify(result.body)}`);
  out.line(`Elapsed:  ${Math.round(result.elapsedMs)} ms${result.requestId ? `  (request id ${result.requestId})` : ''}`);
  out.line(`Header:   ${JSON.stringify(result.header)}`);
  out.line(`Claims:   ${JSON.stringify(result.claims, null, 2).replace(/\n/g, '\n          ')}`);
  // A signed token is a working credential for this uid until it expires: printed only when asked for.
  if (!showToken) {
    out.line('Token:    (not printed; add --show-token or --json to see it)');
    return;
  }
  out.line(`Token:    ${result.token}`);
  if (result.signatureWithheld) out.line('          (signature withheld: the token was signed and sent, but a signed token for a live service is never printed)');
}


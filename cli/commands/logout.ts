import { Command, Option } from 'commander';
import { LOGOUT_ALGORITHMS, NEGATIVE_CASES, type LogoutOptions, type LogoutResult, type NegativeCase, type LogoutAlgorithm } from '../../shared/logout';
import { logoutRefusal } from '../../core/logout-outcome';
import type { Outcome } from '../../shared/errors';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import { markIrreversible, type CliContext } from '../context';
import type { CliOutput } from '../output';
import { parseClaim, parseWholeNumber } from '../parse';

interface LogoutFlags extends ConnectionOptions {
  aud?: string;
  alg: LogoutAlgorithm;
  exp?: string;
  claim: string[];
  events?: boolean;
  negative?: NegativeCase;
  reference?: string;
  json?: boolean;
}

export function logoutCommand({ io, out }: CliContext): Command {
  const command = addConnectionOptions(
    new Command('logout')
      .argument('<uid>', 'the user whose sessions end')
      .description('send a back-channel logout (a JWT signed with the secret key) that ends every session of the user')
      .option('--aud <audience>', 'aud claim (default: the application name)')
      .addOption(new Option('--alg <alg>', 'signing algorithm').choices(LOGOUT_ALGORITHMS).default('HS256'))
      .option('--exp <seconds>', 'add an exp claim this many seconds after iat')
      .option('--claim <key=value>', 'extra claim (value parsed as JSON when it parses); repeatable', (v: string, all: string[]) => [...all, v], [])
      .option('--events', 'add the OIDC back-channel logout events claim')
      .addOption(new Option('--negative <case>', 'send a deliberately broken token the service must refuse').choices(NEGATIVE_CASES))
      .option('--reference <ref>', 'ticket or request number, kept in the audit trail')
      .option('--json', 'print the full result as JSON on stdout'),
  );
  return markIrreversible(command).action(async (uid: string, opts: LogoutFlags) => {
    const options: LogoutOptions = { algorithm: opts.alg, includeEvents: opts.events === true, extraClaims: Object.fromEntries(opts.claim.map(parseClaim)) };
    if (opts.aud !== undefined) options.audience = opts.aud;
    if (opts.exp !== undefined) options.expiresInSeconds = parseWholeNumber(opts.exp, '--exp');
    if (opts.negative !== undefined) options.negativeCase = opts.negative;
    const { desk, profileId } = await resolveConnection(opts, io.env);
    const result = await desk.sendLogout(profileId, uid, options, opts.reference);
    if (opts.json) out.json(result);
    else printResult(out, result);
    const refusal = logoutRefusal(result);
    if (refusal) throw refusal;
  });
}

const STATUS_WORDS: Record<Outcome, string> = {
  done: 'accepted: the user’s sessions are ended',
  refused: 'refused',
  unknown: 'outcome unknown: the sessions may or may not have ended',
  'not-sent': 'not sent',
};

function printResult(out: CliOutput, result: LogoutResult): void {
  out.line(`Status:   ${result.status} (${STATUS_WORDS[result.outcome]})`);
  out.line(`Answer:   ${typeof result.body === 'string' ? result.body || '(empty)' : JSON.stringify(result.body)}`);
  out.line(`Elapsed:  ${Math.round(result.elapsedMs)} ms${result.requestId ? `  (request id ${result.requestId})` : ''}`);
  out.line(`Header:   ${JSON.stringify(result.header)}`);
  out.line(`Claims:   ${JSON.stringify(result.claims, null, 2).replace(/\n/g, '\n          ')}`);
  out.line(`Token:    ${result.token}`);
  if (result.signatureWithheld) out.line('          (signature withheld: the token was signed and sent, but a signed token for a live service is never printed)');
}


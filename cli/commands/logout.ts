import { Command, Option } from 'commander';
import { LOGOUT_ALGORITHMS, NEGATIVE_CASES, type LogoutOptions, type LogoutResult, type NegativeCase, type LogoutAlgorithm } from '../../shared/logout';
import { logoutRefusal } from '../../core/logout-outcome';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import { printJson, printLine } from '../output';
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

export function logoutCommand(): Command {
  return addConnectionOptions(
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
  ).action(async (uid: string, opts: LogoutFlags) => {
    const options: LogoutOptions = { algorithm: opts.alg, includeEvents: opts.events === true, extraClaims: Object.fromEntries(opts.claim.map(parseClaim)) };
    if (opts.aud !== undefined) options.audience = opts.aud;
    if (opts.exp !== undefined) options.expiresInSeconds = parseWholeNumber(opts.exp, '--exp');
    if (opts.negative !== undefined) options.negativeCase = opts.negative;
    const { desk, profileId } = await resolveConnection(opts);
    const result = await desk.sendLogout(profileId, uid, options, opts.reference);
    if (opts.json) printJson(result);
    else printResult(result);
    const refusal = logoutRefusal(result);
    if (refusal) throw refusal;
  });
}

function printResult(result: LogoutResult): void {
  printLine(`Status:   ${result.status} ${result.ok ? '(accepted: the user’s sessions are ended)' : '(refused)'}`);
  printLine(`Answer:   ${typeof result.body === 'string' ? result.body || '(empty)' : JSON.stringify(result.body)}`);
  printLine(`Elapsed:  ${Math.round(result.elapsedMs)} ms${result.requestId ? `  (request id ${result.requestId})` : ''}`);
  printLine(`Header:   ${JSON.stringify(result.header)}`);
  printLine(`Claims:   ${JSON.stringify(result.claims, null, 2).replace(/\n/g, '\n          ')}`);
  printLine(`Token:    ${result.token}`);
}


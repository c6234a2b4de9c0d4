import { Command } from 'commander';
import { PrivacyDeskError } from '../../shared/errors';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import { printJson, printLine } from '../output';

export function tokenCommand(): Command {
  const token = new Command('token').description('inspect logout tokens');
  addConnectionOptions(
    token
      .command('verify <jwt>')
      .description('check a logout token against the connection’s secret key and explain every problem')
      .option('--json', 'print the verification as JSON on stdout'),
  ).action(async (jwt: string, opts: ConnectionOptions & { json?: boolean }) => {
    const { desk, profileId } = await resolveConnection(opts);
    const result = await desk.verifyLogoutToken(profileId, jwt.trim());
    if (opts.json) {
      printJson(result);
    } else {
      printLine(result.valid ? 'Valid: signed with this secret key and acceptable to the service.' : 'Invalid:');
      for (const problem of result.problems) printLine(`  - ${problem}`);
      if (result.header) printLine(`Header: ${JSON.stringify(result.header)}`);
      if (result.claims) printLine(`Claims: ${JSON.stringify(result.claims, null, 2)}`);
    }
    if (!result.valid) {
      throw new PrivacyDeskError({ code: 'TOKEN_INVALID', message: `The token is not valid: ${result.problems.join(' ') || 'unknown problem'}` });
    }
  });
  return token;
}

import { Command } from 'commander';
import { PrivacyDeskError } from '../../shared/errors';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';

export function tokenCommand({ io, out }: CliContext): Command {
  const token = new Command('token').description('inspect logout tokens');
  addConnectionOptions(
    token
      .command('verify <jwt>')
      .description('check a logout token against the connection’s secret key and explain every problem (checked here: nothing is sent to the service)')
      .option('--json', 'print the verification as JSON on stdout')
      .addHelpText('after', '\nExit codes: 0 the token is valid; 1 it is not (each problem is listed on stdout); 2 usage error.\nThe check is local, against the secret key: nothing is sent to the service.'),
  ).action(async (jwt: string, opts: ConnectionOptions & { json?: boolean }) => {
    const { desk, profileId } = await resolveConnection(opts, io.env);
    const result = await desk.verifyLogoutToken(profileId, jwt.trim());
    if (opts.json) {
      out.json(result);
    } else {
      out.line(result.valid ? 'Valid: signed with this secret key and acceptable to the service.' : 'Invalid:');
      for (const problem of new Set(result.problems)) out.line(`  - ${problem}`);
      if (result.header) out.line(`Header: ${JSON.stringify(result.header)}`);
      if (result.claims) out.line(`Claims: ${JSON.stringify(result.claims, null, 2)}`);
    }
    if (!result.valid) {
      // The problems are already on stdout (the list, or the JSON): the error line counts them rather than repeating them.
      const count = result.problems.length;
      const listed = count === 0 ? 'no problem could be named' : `${count} problem${count > 1 ? 's' : ''}, listed on stdout`;
      throw new PrivacyDeskError({ code: 'TOKEN_INVALID', message: `The token is not valid (${listed}); checked locally, nothing was sent to the service.` });
    }
  });
  return token;
}

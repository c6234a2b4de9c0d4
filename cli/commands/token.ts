import { Command } from 'commander';
import { PrivacyDeskError } from '../../shared/errors';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';

export function tokenCommand({ io, out }: CliContext): Command {
  const token = new Command('token').description('inspect logout tokens');
  addConnectionOptions(
    token
      .command('verify <jwt>')
      .description('check a logout token against the connection’s secret key and explain every problem')
      .option('--json', 'print the verification as JSON on stdout'),
  ).action(async (jwt: string, opts: ConnectionOptions & { json?: boolean }) => {
    const { desk, profileId } = await resolveConnection(opts, io.env);
    const result = await desk.verifyLogoutToken(profileId, jwt.trim());
    if (opts.json) {
      out.json(result);
    } else {
      out.line(result.valid ? 'Valid: signed with this secret key and acceptable to the service.' : 'Invalid:');
      for (const problem of result.problems) out.line(`  - ${problem}`);
      if (result.header) out.line(`Header: ${JSON.stringify(result.header)}`);
      if (result.claims) out.line(`Claims: ${JSON.stringify(result.claims, null, 2)}`);
    }
    if (!result.valid) {
      throw new PrivacyDeskError({ code: 'TOKEN_INVALID', message: `The token is not valid: ${result.problems.join(' ') || 'unknown problem'}` });
    }
  });
  return token;
}

import { Command, CommanderError, type OutputConfiguration } from 'commander';
import { settleAnchorConfirmations } from '../core/audit-anchor-confirm';
import { closeTeamStores } from '../core/team/team-stores';
import { auditCommand } from './commands/audit';
import { batchCommand } from './commands/batch';
import { logoutCommand } from './commands/logout';
import { profilesCommand } from './commands/profiles';
import { requestsCommand } from './commands/requests';
import { teamCommand } from './commands/team';
import { tokenCommand } from './commands/token';
import { usersCommand } from './commands/users';
import { withUsersFind } from './commands/users-find';
import { withUsersReconcile } from './commands/users-reconcile';
import { addConnectionOptions, CONNECTION_OPTION_KEYS } from './connection';
import { isIrreversible, type CliContext } from './context';
import { EXIT_CODES_HELP, EXIT_OK, reportFailure, type FailedRun } from './exit-codes';
import type { CliIo } from './io';
import { createOutput } from './output';
import { cliVersion } from './version';

/**
 * Runs one privacy-desk command line (the arguments after the program name) and
 * returns its exit code. It never exits the process and touches nothing but `io`,
 * so tests run it in-process; cli/main.ts is the entry that hands it the real process.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const context: CliContext = { io, out: createOutput(io) };
  const run: FailedRun = { act: false, json: false };
  const program = buildProgram(context).hook('preAction', (_root, actionCommand) => {
    run.act = isIrreversible(actionCommand);
    run.json = actionCommand.getOptionValue('json') === true;
    // Given before the command or after it; `profiles add --base-url` saves a profile instead.
    run.temporaryConnection = actionCommand.parent?.name() !== 'profiles' && [_root, actionCommand].some((command) => command.getOptionValue('baseUrl') !== undefined);
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode ?? EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return EXIT_OK;
    return reportFailure(error, context.out, run);
  } finally {
    for (const atEnd of context.atEnd ?? []) atEnd();
    // The audit anchor learns that the command's last write landed before the command ends.
    await settleAnchorConfirmations();
    // In team mode the database's connections would keep the process alive: closed once the command has ended.
    await closeTeamStores();
  }
}

/** privacy-desk: the command-line face of the same Desk the app uses. */
function buildProgram(context: CliContext): Command {
  const { io } = context;
  const program = new Command('privacy-desk')
    .description('Erase, anonymise and log out users of a hosted debate-space service.')
    .version(cliVersion())
    // On the top-level help only ('after', not 'afterAll'); the acts add it to their own (cli/context.ts).
    .addHelpText('after', EXIT_CODES_HELP)
    // Options before the command belong to the program; after it, to the command (so `profiles add --base-url` stays its own).
    .enablePositionalOptions();
  for (const command of [profilesCommand(context), withUsersReconcile(withUsersFind(usersCommand(context), context), context), logoutCommand(context), tokenCommand(context), auditCommand(context), batchCommand(context), requestsCommand(context), teamCommand(context)]) program.addCommand(command);
  // The connection options work before the command too (`privacy-desk --profile prod users list`):
  // given there, they are handed down to the command that runs.
  addConnectionOptions(program).hook('preAction', (root, actionCommand) => {
    for (const key of CONNECTION_OPTION_KEYS) {
      const value: unknown = root.getOptionValue(key);
      if (value !== undefined && actionCommand !== root) actionCommand.setOptionValue(key, value);
    }
  });
  const output: OutputConfiguration = {
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    // Commander's own default: the terminal's width, else 80.
    getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
    getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
    // The help has no colours of its own; this also keeps escape codes out of what it echoes.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  };
  // Commands added with addCommand inherit no settings, so each one gets them here. Every command
  // throws instead of exiting, so runCli alone maps errors to exit codes.
  const configureAll = (command: Command) => {
    command.configureOutput(output).exitOverride().showHelpAfterError('(add --help for usage)');
    command.commands.forEach(configureAll);
  };
  configureAll(program);
  return program;
}

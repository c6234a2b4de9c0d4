import { Command, CommanderError } from 'commander';
import { logoutCommand } from './commands/logout';
import { profilesCommand } from './commands/profiles';
import { tokenCommand } from './commands/token';
import { usersCommand } from './commands/users';
import { addConnectionOptions, CONNECTION_OPTION_KEYS } from './connection';
import { EXIT_OK, reportError } from './output';

/**
 * privacy-desk: the command-line face of the same Desk the app uses.
 * Exit codes: 0 done, 1 the service refused or failed, 2 usage or validation error (nothing sent).
 */
export function buildProgram(): Command {
  const program = new Command('privacy-desk')
    .description('Erase, anonymise and log out users of a hosted debate-space service.')
    .version('0.1.0')
    .showHelpAfterError('(add --help for usage)')
    // Options before the command belong to the program; after it, to the command (so `profiles add --base-url` stays its own).
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  for (const command of [profilesCommand(), usersCommand(), logoutCommand(), tokenCommand()]) program.addCommand(command);
  // The connection options work before the command too (`privacy-desk --profile prod users list`):
  // given there, they are handed down to the command that runs.
  addConnectionOptions(program).hook('preAction', (root, actionCommand) => {
    for (const key of CONNECTION_OPTION_KEYS) {
      const value: unknown = root.getOptionValue(key);
      if (value !== undefined && actionCommand !== root) actionCommand.setOptionValue(key, value);
    }
  });
  // Every command and subcommand throws instead of exiting, so one place maps errors to exit codes.
  const overrideAll = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(overrideAll);
  };
  overrideAll(program);
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')) return EXIT_OK;
    return reportError(error);
  }
}

// Set the code instead of exiting at once, so piped stdout is flushed completely.
process.exitCode = await runCli(process.argv.slice(2));

import type { Command } from 'commander';
import { EXIT_CODES_HELP } from './exit-codes';
import type { CliIo } from './io';
import type { CliOutput } from './output';

/** What every command needs: where to read and write. One per run, so runs never share state. */
export interface CliContext {
  io: CliIo;
  out: CliOutput;
  /** Set by a command that finished without an error but must not exit 0 (audit verify on a broken chain). */
  exitCode?: number;
  /** Done once the command has ended, however it ended (a batch's previews that were not run are removed). */
  atEnd?: Array<() => void>;
}

// The commands that change something for good (anonymize, delete, logout): their failures
// say the outcome in words, and an unknown outcome has its own exit code.
const irreversibleCommands = new WeakSet<Command>();

/** Marks an act; its --help also shows the exit codes (3 and 4 are about acts), which the other subcommands leave to the top-level help. */
export function markIrreversible(command: Command): Command {
  irreversibleCommands.add(command);
  return command.addHelpText('after', EXIT_CODES_HELP);
}

export function isIrreversible(command: Command): boolean {
  return irreversibleCommands.has(command);
}

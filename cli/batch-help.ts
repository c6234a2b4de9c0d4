import { TEMPORARY_PROFILE_ID } from '../core/desk';
import type { Profile } from '../shared/profile';

export const BATCH_EXIT_CODES_HELP = `
Exit codes:
  0  every item is done or not found (already erased, or never existed);
     with --dry-run: the preview was printed and nothing was sent
  1  some items failed, or the run was cancelled (Ctrl-C) or did not finish:
     "privacy-desk batch resume JOB" finishes it
  2  usage or validation error, no valid uid, or no confirmation: nothing
     was sent
  3  the run stopped on an error whose outcome is UNKNOWN (an item may have
     been carried out): "batch resume" re-checks it
  4  the run stopped because the audit trail could not record an outcome
     (disk full…): free the disk, then "batch resume"`;

export const BATCH_INPUT_HELP = `
Input:
  FILE is a list (one uid per line), a CSV or a TSV file; "-" reads standard
  input. Each uid is taken exactly as written (spaces, case and accents
  count); invalid lines are listed with their line number and left out;
  duplicates are removed. The columns of a CSV file are separated by commas
  or semicolons (guessed from the header row: the cell named like a uid),
  TSV by tabs; --separator comma|semicolon|tab says which, and
  --separator none reads each whole line as one uid. A file read as a list
  whose lines mostly hold a separator is refused: those are rows of columns.
  --column and --reference-column take a header name, or a 0-based column
  index when all digits (--column 0 is the first column, --column uid the
  one headed "uid"). Without --column: the column headed like a uid ("uid",
  "user id", "identifiant"…), else the first.

Steps:
  The input is read and checked (nothing is sent); --check looks the uids up
  on the service (read-only); a preview shows the environment, the operation,
  the count and the first and last uids; --dry-run stops there. Then confirm
  by typing the operation and the count when asked (e.g. DELETE 250), or give
  it as --yes "DELETE 250" (needed without a terminal, and when FILE is "-").
  Ctrl-C cancels a run: the items in flight finish, nothing more is sent, and
  "privacy-desk batch resume" finishes the job later.`;

/** How to finish a job: a saved profile is in the job; a --base-url connection must be given again. */
export function resumeCommand(batchId: string, profile: Pick<Profile, 'id' | 'baseUrl' | 'applicationName'>): string {
  const connection = profile.id === TEMPORARY_PROFILE_ID ? ` --base-url ${shellArgument(profile.baseUrl)} --app ${shellArgument(profile.applicationName)}` : '';
  return `privacy-desk batch resume ${shellArgument(batchId)}${connection}`;
}

/**
 * An argument as a POSIX shell (and zsh) reads it back exactly: as it is when made of characters no shell
 * expands, else in single quotes ([::ffff:…] would be a glob to zsh, "=cmd" a command path, $ and * expand).
 */
export function shellArgument(value: string): string {
  return /^[\w@%+:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

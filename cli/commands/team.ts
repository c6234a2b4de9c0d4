import { userInfo } from 'node:os';
import { Command } from 'commander';
import type { TeamStatus } from '../../shared/team-mode';
import { ensureDataDir, resolveDataDir } from '../../core/data-dir';
import { openCredentialStore } from '../../core/keytar-credential-store';
import { connectTeam, disconnectTeam, teamStatus, type TeamAdminOptions } from '../../core/team/team-admin';
import { DATABASE_PASSWORD_ENV } from '../../core/team/team-settings';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import type { CliContext } from '../context';
import { promptHidden } from '../prompt';
import { addTeamImportCommand } from './team-import';
import { cliVersion } from '../version';

/**
 * `team connect | status | disconnect | import`: the data folder's trail, batch jobs and request register in the
 * team's PostgreSQL database instead of this computer's files. Every other command then works on it unchanged.
 */
export function teamCommand(context: CliContext): Command {
  const { io, out } = context;
  const team = new Command('team').description('team mode: the audit trail, batch jobs and request register in a PostgreSQL database the team shares');
  const admin = async (): Promise<TeamAdminOptions> => {
    const dataDir = ensureDataDir(resolveDataDir(io.env));
    const { store } = await openCredentialStore({ env: io.env });
    return { dataDir, keychain: store, env: io.env, operator: osUser(), via: 'cli', appVersion: cliVersion() };
  };

  team
    .command('connect')
    .description(`work on the team database: tests the connection and brings its schema up to date before saving anything; the password is asked on the terminal (or read from ${DATABASE_PASSWORD_ENV}) and kept in the OS keychain only`)
    .requiredOption('--database-url <url>', 'postgres://USER@HOST:PORT/DB (no password in it; TLS unless the host is this computer)')
    .option('--json', 'print the status as JSON on stdout')
    .action(async (opts: { databaseUrl: string; json?: boolean }) => {
      // The address's rules first: a wrong one is refused before a password is asked or a connection tried.
      const address = parseTeamDatabaseUrl(opts.databaseUrl);
      const password = io.env[DATABASE_PASSWORD_ENV] || (io.stdin.isTTY === true ? await promptHidden(`Password of ${address.user} on ${address.display}: `, io) : '');
      const options = await admin();
      const status = await connectTeam(options, opts.databaseUrl, password);
      if (opts.json) return out.json(status);
      out.line(`Connected: this data folder now works on ${status.where ?? address.display} (role ${status.role ?? '?'}).`);
      printCounts(out.line, status);
      if (options.keychain.kind !== 'keychain') out.note(`The OS keychain is not in use, so the password is not kept: set ${DATABASE_PASSWORD_ENV} for the commands that follow.`);
      else out.note('The password is kept in the OS keychain, never in a file.');
      if ((status.counts?.auditEntries ?? 0) === 0) out.note('To bring this folder’s local trail, jobs and register into the team database: privacy-desk team import.');
    });

  team
    .command('status')
    .description('local or team mode; in team mode the database, whether it answers (and why not: exit 1), the role, the schema step and what it holds')
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { json?: boolean }) => {
      const status = await teamStatus(await admin());
      if (opts.json) return out.json(status);
      printStatus(out.line, status);
      if (status.mode === 'team' && !status.reachable) context.exitCode = 1;
    });

  team
    .command('disconnect')
    .description('back to this computer’s files; the password is removed from the keychain; the team’s data stays in the database')
    .action(async () => {
      const where = await disconnectTeam(await admin());
      out.line(`Disconnected: this data folder works on its local files again. The team’s data stays in ${where ?? 'the team database'}; the password was removed from the keychain.`);
    });

  addTeamImportCommand(team, context, admin);
  return team;
}

function printStatus(line: (text: string) => void, status: TeamStatus): void {
  if (status.mode === 'local') {
    line('Local mode: the audit trail, batch jobs and request register are kept in this data folder.');
    return;
  }
  line(`Team mode: ${status.where ?? ''}`);
  if (status.connectedAt) line(`Connected on ${status.connectedAt}${status.connectedBy ? ` by ${status.connectedBy.operator} on ${status.connectedBy.desktop}` : ''}.`);
  if (status.importedAt) line(`Local data imported on ${status.importedAt}.`);
  line(`Password: ${PASSWORD_WORDS[status.password ?? 'missing']}.`);
  if (!status.reachable) {
    line(`Reachable: no. ${status.problem?.message ?? ''}`.trim());
    return;
  }
  line(`Reachable: yes, as role ${status.role ?? '?'} from ${status.desktop ?? '?'}.`);
  if (status.schema) line(`Schema: ${status.schema.steps} steps, the last ${status.schema.last}.`);
  printCounts(line, status);
}

const PASSWORD_WORDS: Record<NonNullable<TeamStatus['password']>, string> = {
  keychain: 'in the OS keychain',
  session: 'kept for this session only (no keychain)',
  environment: `from ${DATABASE_PASSWORD_ENV}`,
  missing: `missing: run privacy-desk team connect again, or set ${DATABASE_PASSWORD_ENV}`,
};

function printCounts(line: (text: string) => void, status: TeamStatus): void {
  const counts = status.counts;
  if (counts) line(`Holds: ${counts.auditEntries} audit entries, ${counts.requests} requests, ${counts.jobs} batch jobs.`);
}

function osUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

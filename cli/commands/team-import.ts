import type { Command } from 'commander';
import { PrivacyDeskError, invalidInput } from '../../shared/errors';
import { wordInEnglish } from '../../shared/messages';
import { importLocalIntoTeam, type TeamAdminOptions } from '../../core/team/team-admin';
import type { CliContext } from '../context';
import { promptLine } from '../batch-prompt';
import { visibleText } from '../visible-text';

const PHRASE = 'IMPORT';

/**
 * `team import`: this data folder's local trail, batch jobs and request register moved into the team database,
 * keeping the chain (the local head hash is recorded in the first imported entry, and `audit verify` checks the join).
 * Done once: a second import is refused. Confirmed by typing IMPORT (or --yes IMPORT).
 */
export function addTeamImportCommand(team: Command, context: CliContext, admin: () => Promise<TeamAdminOptions>): void {
  const { io, out } = context;
  team
    .command('import')
    .description('move this data folder’s local audit trail, batch jobs and request register into the team database, keeping the chain (once)')
    .option('--yes <phrase>', `confirm without a question: "${PHRASE}"`)
    .option('--json', 'print what was imported as JSON on stdout')
    .action(async (opts: { yes?: string; json?: boolean }) => {
      const options = await admin();
      if (opts.yes !== undefined) {
        if (opts.yes.trim() !== PHRASE) throw mismatch(`--yes "${visibleText(opts.yes)}" does not confirm the import: give --yes ${PHRASE}. Nothing was imported.`);
      } else {
        if (io.stdin.isTTY !== true) throw invalidInput(`No terminal to ask for the confirmation on: run privacy-desk team import --yes ${PHRASE}. Nothing was imported.`);
        const typed = await promptLine(`The local trail, jobs and register go into the team database, once and for good. Type ${PHRASE} to confirm: `, io);
        if (typed.trim() !== PHRASE) throw mismatch(`Not confirmed. Nothing was imported.`);
      }
      const imported = await importLocalIntoTeam(options);
      if (opts.json) return out.json(imported);
      out.line(`Imported into ${imported.where}: ${imported.auditEntries} audit entries, ${imported.jobs} batch jobs, ${imported.requests} requests (${imported.registerEvents} register events).`);
      for (const left of imported.jobsNotImported) out.note(`Batch job ${left.jobId} was not imported: ${left.why}`);
      if (imported.requestersUnreadable > 0) out.note(`${imported.requestersUnreadable} requesters could not be read with this computer's keychain: they stay unreadable in the team register.`);
      if (imported.trailAlreadyThere) out.note(`${wordInEnglish(imported.trailAlreadyThere)} (an earlier import stopped after the trail: this one moved the rest.)`);
      if (imported.localHeadHash) out.line(`The local chain's head ${imported.localHeadHash} is recorded in the team chain's first imported entry; privacy-desk audit verify checks the join.`);
    });
}

const mismatch = (message: string) => new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message });

import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { describeVerdict } from '../../core/audit-chain';
import { describeAnchor } from '../../core/audit-anchor-verdict';
import { batchSummaryWords, vouchingWords } from '../../core/audit-export';
import { ACKNOWLEDGEMENT_REASON, auditIntact, matchesAuditFilter, type AuditEntryAt, type AuditFilter, type AuditReading, type ChainVerdict } from '../../shared/audit';
import { invalidInput } from '../../shared/errors';
import { fileNotWritten } from '../../core/disk-error';
import { openDesk } from '../connection';
import type { CliContext } from '../context';
import { addReceiptCommand } from './audit-receipt';
import { EXIT_FAILED } from '../exit-codes';
import type { CliOutput } from '../output';
import { formatTable, type Column } from '../table';
import { visibleUid } from '../visible-text';

interface FilterOptions {
  since?: string;
  until?: string;
  uid?: string;
  reference?: string;
  operation?: AuditFilter['operation'];
  outcome?: AuditFilter['outcome'];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function addFilterOptions(command: Command): Command {
  return command
    .option('--since <date>', 'from this date (YYYY-MM-DD, inclusive, the operator’s local date)')
    .option('--until <date>', 'up to this date (YYYY-MM-DD, inclusive)')
    .option('--uid <uid>', 'only this uid (exact)')
    .option('--reference <ref>', 'only this reference (ignoring case)')
    .addOption(new Option('--operation <op>', 'only this operation (batch: the summaries of batch runs; their items are under anonymize or delete; acknowledge: anchor findings acknowledged)').choices(['anonymize', 'delete', 'logout', 'batch', 'acknowledge', 'request']))
    .addOption(new Option('--outcome <stage>', 'only entries at this stage (summary: a batch run’s counts)').choices(['attempted', 'not-sent', 'refused', 'done', 'unknown', 'verification', 'summary', 'acknowledged']));
}

function filterOf(opts: FilterOptions): AuditFilter {
  for (const [name, value] of [['--since', opts.since], ['--until', opts.until]] as const) {
    if (value !== undefined && (!DATE.test(value) || Number.isNaN(Date.parse(value)))) throw invalidInput(`${name} takes a date as YYYY-MM-DD (got "${value}").`);
  }
  const filter: AuditFilter = {};
  for (const key of ['since', 'until', 'uid', 'reference', 'operation', 'outcome'] as const) if (opts[key] !== undefined) Object.assign(filter, { [key]: opts[key] });
  return filter;
}

/** `audit list | verify | acknowledge | export | receipt`: the trail read, checked and exported from the same core as the console. */
export function auditCommand(context: CliContext): Command {
  const { io, out } = context;
  const audit = new Command('audit').description('read, verify and export the audit trail');

  addFilterOptions(audit.command('list').description('list audit entries, oldest first, with corrupt lines and the chain’s state'))
    .option('--json', 'print JSON on stdout')
    .action(async (opts: FilterOptions & { json?: boolean }) => {
      const filter = filterOf(opts);
      const reading = await (await openDesk({ keychain: false }, io.env)).readAudit();
      const entries = reading.entries.filter((entry) => matchesAuditFilter(entry, filter));
      const missing = new Set(reading.outcomeMissing.map((m) => m.line));
      if (opts.json) {
        out.json({ entries: entries.map((e) => (missing.has(e.line) ? { ...e, outcomeNotRecorded: true } : e)), corrupt: reading.corrupt, outcomeMissing: reading.outcomeMissing, verdict: reading.verdict, ...(reading.setAside ? { setAside: reading.setAside } : {}) });
        return;
      }
      printEntries(out, entries, missing, reading.verdict);
      printProblems(out, reading);
    });

  audit
    .command('verify')
    .description('check the hash chain and its anchor: exit 0 when verified (a crash its fragment proves, or findings acknowledged, are said), 1 naming the first break or open finding and its line')
    .option('--head <hash>', 'a head hash written down earlier (in a ticket): the trail must still hold that entry')
    .option('--json', 'print the verdict as JSON on stdout')
    .action(async (opts: { head?: string; json?: boolean }) => {
      const head = opts.head?.trim().toLowerCase();
      if (head !== undefined && !/^[0-9a-f]{64}$/.test(head)) throw invalidInput(`--head takes a SHA-256 hash: 64 hexadecimal characters (got "${opts.head}").`);
      const verdict = await (await openDesk({ keychain: false }, io.env)).verifyAudit(head);
      if (opts.json) out.json(verdict);
      else {
        out.line(describeVerdict(verdict));
        for (const line of describeAnchor(verdict.anchor)) out.line(line);
        if (verdict.register) out.line(verdict.register.ok ? `Request register: verified, ${verdict.register.events} events, each vouched for by its audit entry.` : `Request register: NOT verified: ${verdict.register.message}`);
      }
      if (!auditIntact(verdict)) context.exitCode = EXIT_FAILED;
    });

  audit
    .command('acknowledge')
    .description('acknowledge an open finding of the trail’s anchor (audit verify lists them) with the reason you type: written to the trail with your name and the time; the finding stays on record, and verify passes once none is left open')
    .argument('<finding>', 'the finding’s id (12 hexadecimal characters, as audit verify prints it)')
    .requiredOption('--reason <text>', `why the finding is acceptable, on one line (at least ${ACKNOWLEDGEMENT_REASON.min} characters)`)
    .option('--json', 'print the verdict after it as JSON on stdout')
    .action(async (finding: string, opts: { reason: string; json?: boolean }) => {
      const verdict = await (await openDesk({ keychain: false }, io.env)).acknowledgeAuditFinding({ finding, reason: opts.reason });
      if (opts.json) out.json(verdict);
      else {
        out.line(`Finding ${finding.trim().toLowerCase()} acknowledged: the audit trail records your reason, your name and the time, and the finding stays on record.`);
        out.line(describeVerdict(verdict));
        for (const line of describeAnchor(verdict.anchor)) out.line(line);
      }
      if (!verdict.ok) context.exitCode = EXIT_FAILED;
    });

  addFilterOptions(audit.command('export').description('export the entries a filter keeps, as CSV or JSON, with the chain’s head hash'))
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).makeOptionMandatory())
    .option('--output <file>', 'write to this file (default: stdout)')
    .action(async (opts: FilterOptions & { format: 'csv' | 'json'; output?: string }) => {
      const filter = filterOf(opts);
      const exported = await (await openDesk({ keychain: false }, io.env)).exportAudit({ format: opts.format, filter });
      if (opts.output) {
        try {
          await writeFile(opts.output, exported.content, { mode: 0o600 });
        } catch (error) {
          throw fileNotWritten(opts.output, error);
        }
      } else if (io.stdout.isTTY) {
        out.line(exported.content.replace(/\r?\n$/, '')); // a terminal obeys control characters: shown as escapes
      } else {
        io.stdout.write(exported.content); // piped: the file exactly
      }
      out.note(`Exported ${exported.count} ${exported.count === 1 ? 'entry' : 'entries'}${opts.output ? ` to ${opts.output}` : ''}; head hash of the chain: ${exported.headHash ?? '(none)'}.`);
    });
  addReceiptCommand(audit, context);
  return audit;
}

function printEntries(out: CliOutput, entries: AuditEntryAt[], missing: Set<number>, verdict: ChainVerdict): void {
  if (entries.length === 0) {
    out.line('No audit entries match.');
    return;
  }
  // Team mode: who wrote each entry from where, with which database role; the columns only when some entry says so.
  const team = entries.some((e) => e.desktop !== undefined || e.dbRole !== undefined);
  const teamColumns: Array<Column<AuditEntryAt>> = team
    ? [
        { title: 'DESKTOP', value: (e) => e.desktop ?? '', maxWidth: 24 },
        { title: 'DB ROLE', value: (e) => e.dbRole ?? '', maxWidth: 20 },
      ]
    : [];
  out.line(
    formatTable(entries, [
      { title: 'LINE', value: (e) => String(e.line), align: 'right' },
      { title: 'TIME', value: (e) => e.at },
      { title: 'OPERATION', value: (e) => e.action },
      { title: 'STAGE', value: (e) => `${stageWords(e, missing)}${unvouchedWords(verdict, e.line)}`, maxWidth: 140 },
      { title: 'UID', value: (e) => visibleUid(e.uid), maxWidth: 40 },
      { title: 'REFERENCE', value: (e) => e.reference ?? '', maxWidth: 24 },
      { title: 'PROFILE', value: (e) => e.profileName, maxWidth: 20 },
      { title: 'STATUS', value: (e) => (e.status !== undefined ? String(e.status) : ''), align: 'right' },
      { title: 'VIA', value: (e) => e.via },
      { title: 'OPERATOR', value: (e) => e.operator ?? '' },
      ...teamColumns,
    ]),
  );
  out.line(`${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`);
}

/** Beside an entry the chain does not vouch for (outside it, where it breaks, after that): why, so it never reads as recorded. */
function unvouchedWords(verdict: ChainVerdict, line: number): string {
  const words = vouchingWords(verdict, line);
  return words === 'yes' ? '' : ` [NOT VOUCHED: ${words.replace(/^no: /, '').replace(/ \(\d+\)$/, '')}]`;
}

function stageWords(entry: AuditEntryAt, missing: Set<number>): string {
  if (missing.has(entry.line)) return 'attempted (outcome not recorded)';
  if (entry.outcome === 'verification') return `verification: ${entry.verification ?? '?'}`;
  // A batch run's summary has no uid: its counts are what it says.
  if (entry.outcome === 'summary' && entry.batch) return `summary: ${batchSummaryWords(entry.batch)}`;
  if (entry.acknowledgement) return `acknowledged finding ${entry.acknowledgement.finding}: ${entry.acknowledgement.reason}`;
  // The batch results' words for the same 404: one wording for one fact.
  if (entry.outcome === 'refused' && entry.errorCode === 'NOT_FOUND' && (entry.action === 'anonymize' || entry.action === 'delete')) return 'refused: not found (already erased or never existed)';
  return entry.outcome + (entry.test ? ' [test]' : '');
}

/** Corrupt lines, a torn tail set aside, attempts without outcome, and the chain's verdict: on stderr, after the list. */
function printProblems(out: CliOutput, reading: AuditReading): void {
  if (reading.setAside) out.note(`A torn last line (${reading.setAside.bytes} bytes, left by a crash or a full disk) was moved to ${reading.setAside.path}.`);
  for (const bad of reading.corrupt) out.note(`Line ${bad.line}: corrupt (${bad.problem}): ${JSON.stringify(bad.excerpt)}`);
  if (reading.outcomeMissing.length > 0) {
    out.note(`${reading.outcomeMissing.length} ${reading.outcomeMissing.length === 1 ? 'act has' : 'acts have'} no recorded outcome (lines ${reading.outcomeMissing.map((m) => m.line).join(', ')}): treat them as unknown and check the users.`);
  }
  out.note(describeVerdict(reading.verdict));
  for (const line of describeAnchor(reading.verdict.anchor)) out.note(line);
}

import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { wordInEnglish } from '../../shared/messages';
import { anotherUsersUid } from '../../shared/logout-conformance';
import { conformanceJson, conformanceJunit, conformanceReport, type ConformanceReport } from '../../shared/logout-conformance-report';
import type { ConformanceOrder } from '../../core/service/erasure-gate';
import { isLocalBaseUrl } from '../../shared/profile';
import { PrivacyDeskError } from '../../shared/errors';
import { diskProblem } from '../../core/disk-error';
import { promptLine } from '../batch-prompt';
import { addConnectionOptions, resolveConnection, type ConnectionOptions } from '../connection';
import { markIrreversible, type CliContext } from '../context';
import { EXIT_FAILED, EXIT_OUTCOME_UNKNOWN } from '../exit-codes';
import { noteLiveData } from '../live-data';
import { formatTable } from '../table';
import { visibleText, visibleUid } from '../visible-text';

interface ConformanceFlags extends ConnectionOptions {
  uid: string;
  confirm?: string;
  reference?: string;
  json?: boolean;
  junit?: string;
  report?: string;
}

export const CONFORMANCE_EXIT_HELP = `
Exit codes of logout conformance:
  0  every rule of the service's docs is met (rules from the OIDC specification
     or good practice that are not met are printed as notes)
  1  a rule of the service's docs is NOT met (a defect to report)
  2  usage or validation error, or a live profile not confirmed: nothing was sent
  3  no rule of the service's docs failed, but one could not be judged
     (inconclusive: no answer, a 5xx, a 429 still there after three waits
     for its Retry-After, no session to end, or an
     acceptance whose session end could not be checked on a live service)
  4  the audit trail could not record a send's outcome (the run stopped)`;

const VERDICT_WORDS = { conformant: 'conformant', 'not-conformant': 'NOT CONFORMANT', inconclusive: 'inconclusive' } as const;
const SOURCE_WORDS = { 'service-docs': 'service docs', 'oidc-spec': 'OIDC spec', 'good-practice': 'good practice' } as const;

/** privacy-desk logout conformance --uid UID: one crafted token per rule, a verdict for each (shared/logout-conformance.ts). */
export function logoutConformanceCommand(context: CliContext): Command {
  const { io, out } = context;
  const command = addConnectionOptions(
    new Command('conformance')
      .description('check how the service validates logout tokens: one crafted token per rule (OIDC Back-Channel Logout 1.0 §2.6), each audited; valid ones end the user’s sessions')
      .requiredOption('--uid <uid>', 'the user the tokens name (its sessions end on each accepted token)')
      .option('--confirm <uid>', 'for a service off this computer: repeat the uid, to confirm that real sessions end (its own, and those of a user whose uid is the same in other letter case, if there is one)')
      .option('--reference <ref>', 'ticket or request number, kept in the audit trail')
      .option('--json', 'print the result as JSON on stdout: { cases: [{ id, rule, source, expected, actual, verdict }] }')
      .option('--junit <file>', 'also write a JUnit XML report (one test suite per source of rules)')
      .option('--report <file>', 'also write the JSON report to a file'),
  );
  return markIrreversible(command)
    .addHelpText('after', CONFORMANCE_EXIT_HELP)
    .action(async (opts: ConformanceFlags) => {
      const { desk, profileId } = await resolveConnection(opts, io.env);
      const profile = await desk.getProfile(profileId);
      noteLiveData(out, profile.baseUrl);
      // A report that cannot be written is said before any token is sent, not after sessions were ended.
      for (const path of [opts.junit, opts.report]) if (path !== undefined) await assertReportWritable(path);
      const order: ConformanceOrder = { uid: opts.uid };
      if (opts.reference !== undefined) order.reference = opts.reference;
      if (!isLocalBaseUrl(profile.baseUrl)) order.confirmUid = opts.confirm ?? (await askConfirmation(opts.uid, profile.baseUrl, context));
      const run = await desk.runLogoutConformance(profileId, order);
      const report = conformanceReport(run, wordInEnglish);
      // The result first: a file the disk refuses now still leaves the run's verdicts on stdout.
      if (opts.json) out.json(report);
      else printReport(report, context);
      if (opts.junit !== undefined) await writeReport(opts.junit, conformanceJunit(report));
      if (opts.report !== undefined) await writeReport(opts.report, conformanceJson(report));
      if (run.overall === 'not-conformant') context.exitCode = EXIT_FAILED;
      else if (run.overall === 'inconclusive') context.exitCode = EXIT_OUTCOME_UNKNOWN;
    });
}

/** On a terminal, the uid typed again; elsewhere the run is refused (nothing sent), saying to give --confirm. */
async function askConfirmation(uid: string, baseUrl: string, { io }: CliContext): Promise<string | undefined> {
  if (io.stdin.isTTY !== true) {
    throw new PrivacyDeskError({
      code: 'CONFIRMATION_MISMATCH',
      message: `This run sends real logout tokens to ${visibleText(new URL(baseUrl).host)}: valid ones end the real sessions of ${visibleUid(uid)}. There is no terminal to ask on: give --confirm with the uid again to run it. Nothing was sent.`,
    });
  }
  const other = visibleUid(anotherUsersUid(uid));
  return promptLine(
    `This sends real logout tokens: valid ones end the real sessions of ${visibleUid(uid)}, and one names ${other} (the other-sub case): a user with that uid, if there is one, loses their sessions too. Type the uid to confirm: `,
    io,
  );
}

function whyNotWritten(error: unknown): string {
  const { why, systemCode } = diskProblem(error);
  return `${wordInEnglish(why)}${systemCode ? ` (${systemCode})` : ''}`;
}

/** The file can be created (its folder exists and is writable) or replaced; else a usage error, before anything is sent. */
async function assertReportWritable(path: string): Promise<void> {
  try {
    const existing = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (existing?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    await access(existing ? path : dirname(resolve(path)), constants.W_OK);
  } catch (error) {
    const missingFolder = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
    const why = missingFolder ? 'its folder does not exist' : whyNotWritten(error);
    throw new PrivacyDeskError({ code: 'INVALID_INPUT', message: `The report cannot be written to ${visibleText(path)}: ${why}. Nothing was sent; give another path.` });
  }
}

/** After the run (its result already printed): the tokens were sent and audited, so the outcome is "done", never "nothing reached the service". */
async function writeReport(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, 'utf8');
  } catch (error) {
    throw new PrivacyDeskError({
      code: 'FILE_WRITE_FAILED',
      outcome: 'done',
      message: `The report could not be written to ${visibleText(path)}: ${whyNotWritten(error)}. The run was done and audited, and its result is printed above; free the disk or give another path before running it again.`,
    });
  }
}

/** Why no session was counted: on a sandbox, no active user has the uid; elsewhere, sessions cannot be read. */
function sessionsNotCheckedLine(report: ConformanceReport): string {
  const noUser = report.cases.some((one) => one.sends.some((send) => send.sessions === 'no-session'));
  return noUser
    ? `No session could be opened for ${visibleUid(report.uid)}: the sandbox has no active user with this uid, so an acceptance cannot show sessions ending. Run it for a uid the sandbox lists.`
    : 'Sessions were not checked on this service: an acceptance is inconclusive about whether sessions ended.';
}

function printReport(report: ConformanceReport, { out }: CliContext): void {
  out.line(`Logout conformance of ${report.profile} for ${visibleUid(report.uid)}`);
  out.line(
    formatTable(report.cases, [
      { title: 'Case', value: (one) => one.id },
      { title: 'Source', value: (one) => SOURCE_WORDS[one.source] },
      { title: 'Verdict', value: (one) => VERDICT_WORDS[one.verdict as keyof typeof VERDICT_WORDS] ?? one.verdict },
      { title: 'Expected', value: (one) => one.expected, maxWidth: 48 },
      { title: 'Actual', value: (one) => one.actual, maxWidth: 70 },
    ]),
  );
  for (const one of report.cases.filter((c) => c.verdict === 'not-conformant')) {
    out.line(`${one.source === 'service-docs' ? 'DEFECT' : 'Note'} (${one.id}): ${one.rule} Actual: ${one.actual}. Source: ${one.reference}.`);
  }
  // The table cuts long texts: what left a case undecided is said whole.
  for (const one of report.cases.filter((c) => c.verdict === 'inconclusive')) out.line(`Inconclusive (${one.id}): ${one.actual}.`);
  if (!report.sessionsChecked) out.line(sessionsNotCheckedLine(report));
  const { conformant, inconclusive } = report.counts;
  out.line(`Conformant: ${conformant}  Not conformant: ${report.counts['not-conformant']}  Inconclusive: ${inconclusive}`);
  const overall = { conformant: 'every rule of the service’s docs is met', 'not-conformant': 'a rule of the service’s docs is NOT met', inconclusive: 'a rule of the service’s docs could not be judged' }[report.overall];
  out.line(`Verdict: ${overall}.`);
}

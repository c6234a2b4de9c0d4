import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { invalidInput } from '../../shared/errors';
import { DUE_SOON_DAYS, type RegisterSettings, RequestChangeInput, RequestView } from '../../shared/requests';
import type { Desk } from '../../core/desk';
import { fileNotWritten } from '../../core/disk-error';
import type { CliContext } from '../context';
import { printRequestTable, requestJson } from '../requests-print';

/** `--within 7d` (or `7`): whole days, 0 to 3660. */
export function parseWithinDays(value: string | undefined): number {
  if (value === undefined) return DUE_SOON_DAYS;
  const match = /^(\d{1,4})d?$/.exec(value.trim());
  const days = match ? Number(match[1]) : NaN;
  if (!(days >= 0 && days <= 3660)) throw invalidInput(`--within takes a number of days such as 7d (got "${value}").`);
  return days;
}

/** The register's changes of state (pause, resume, extend, purge), `due`, `export` and `settings`. */
export function addRequestAdminCommands(requests: Command, context: CliContext, desk: () => Promise<Desk>, print: (view: RequestView, json: boolean | undefined) => void): void {
  const { io, out } = context;
  const change = (name: string, description: string, changeOf: (opts: Record<string, string | undefined>) => RequestChangeInput, options: (c: Command) => Command = (c) => c) =>
    options(requests.command(name).argument('<id>', 'the request’s id (REQ-YYYY-NNNN)').description(description))
      .option('--json', 'print the request as JSON on stdout')
      .action(async (id: string, opts: Record<string, string | undefined> & { json?: boolean }) => print(await (await desk()).requests.apply(id, changeOf(opts)), opts.json));

  change('pause', 'waiting for the requester’s identity: the clock stops (unless settings say otherwise)', (o) => ({ kind: 'pause', ...(o.at ? { at: o.at } : {}) }), (c) => c.option('--at <iso>', 'when (default now)'));
  change('resume-clock', 'the identity is checked: the clock runs again, the request is in progress', (o) => ({ kind: 'resume', ...(o.at ? { at: o.at } : {}) }), (c) => c.option('--at <iso>', 'when (default now)'));
  change(
    'extend',
    'extend the period by two months (decided, and the person told, within the first month)',
    (o) => ({ kind: 'extend', reason: o.reason ?? '', personToldAt: o.personTold ?? '', ...(o.decided ? { decidedAt: o.decided } : {}) }),
    (c) => c.requiredOption('--reason <text>', 'why (complex or numerous requests)').requiredOption('--person-told <iso>', 'when the person was told').option('--decided <iso>', 'when it was decided (default now)'),
  );
  // refuse and close, which can also write the answer pack, are in requests-pack.ts.
  change('purge', 'purge a closed request’s requester now (name and contact gone for good; the anonymous record stays)', () => ({ kind: 'purge' }));

  requests
    .command('due')
    .description('open requests overdue or due within a window (for a scheduled job); exit 0 whether or not any are due')
    .option('--within <days>', `days ahead, e.g. 7d (default ${DUE_SOON_DAYS}d)`)
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { within?: string; json?: boolean }) => {
      const within = parseWithinDays(opts.within);
      const d = await desk();
      await d.requests.purgeDue();
      const views = await d.requests.list({ status: 'open', dueWithinDays: within });
      const overdue = views.filter((v) => v.clock.daysLeft < 0).length;
      if (opts.json) out.json({ withinDays: within, overdue, dueSoon: views.length - overdue, requests: views.map(requestJson) });
      else printRequestTable(out, views);
    });

  requests
    .command('export')
    .description('export the register as CSV (formula-safe cells) or JSON; the requester only with --with-contact')
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).makeOptionMandatory())
    .option('--with-contact', 'include the requester’s name and contact')
    .option('--output <file>', 'write to this file (default: stdout)')
    .action(async (opts: { format: 'csv' | 'json'; withContact?: boolean; output?: string }) => {
      const exported = await (await desk()).requests.export(opts.format, { withContact: opts.withContact === true });
      if (opts.output) {
        await writeFile(opts.output, exported.content, { mode: 0o600 }).catch((error: unknown) => {
          throw fileNotWritten(opts.output as string, error);
        });
      } else if (io.stdout.isTTY) out.line(exported.content.replace(/\r?\n$/, ''));
      else io.stdout.write(exported.content);
      out.note(`Exported ${exported.count} request${exported.count === 1 ? '' : 's'}${opts.output ? ` to ${opts.output}` : ''}${opts.withContact ? ', with the requesters’ names and contacts: keep the file safe' : ''}.`);
    });

  requests
    .command('settings')
    .description('the register’s settings: time zone, country of the public holidays, whether a pause stops the clock, years before purging')
    .option('--time-zone <zone>', 'IANA time zone, e.g. Europe/Paris')
    .option('--country <cc>', 'two-letter country code of the public holidays, e.g. FR')
    .addOption(new Option('--pause-stops-clock <bool>', 'whether waiting for identity stops the clock').choices(['true', 'false']))
    .option('--purge-after-years <n>', 'years after closing before the requester is purged')
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { timeZone?: string; country?: string; pauseStopsClock?: string; purgeAfterYears?: string; json?: boolean }) => {
      const changes: Partial<RegisterSettings> = {};
      if (opts.timeZone !== undefined) changes.timeZone = opts.timeZone;
      if (opts.country !== undefined) changes.country = opts.country.trim().toUpperCase();
      if (opts.pauseStopsClock !== undefined) changes.pauseStopsClock = opts.pauseStopsClock === 'true';
      if (opts.purgeAfterYears !== undefined) {
        const years = /^\d{1,2}$/.test(opts.purgeAfterYears.trim()) ? Number(opts.purgeAfterYears) : NaN;
        if (!(years >= 1 && years <= 50)) throw invalidInput(`--purge-after-years takes a whole number of years from 1 to 50 (got "${opts.purgeAfterYears}").`);
        changes.purgeAfterYears = years;
      }
      const d = await desk();
      const settings = Object.keys(changes).length ? await d.requests.saveSettings(changes) : await d.requests.settings();
      if (opts.json) out.json(settings);
      else out.line(`Time zone: ${settings.timeZone}\nCountry (public holidays): ${settings.country}\nA pause stops the clock: ${settings.pauseStopsClock ? 'yes' : 'no'}\nRequester purged: ${settings.purgeAfterYears} years after closing`);
    });
}

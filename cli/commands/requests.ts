import { Command, Option } from 'commander';
import { invalidInput } from '../../shared/errors';
import { REQUEST_ACTIONS, REQUEST_CHANNELS, REQUEST_STATUSES, type RequestAction, type RequestChannel, type RequestFields, type RequestView } from '../../shared/requests';
import type { Desk } from '../../core/desk';
import { openDesk } from '../connection';
import type { CliContext } from '../context';
import { printRequest, printRequestTable, requestJson } from '../requests-print';
import { addRequestAdminCommands } from './requests-admin';
import { addRequestImportCommand } from './requests-import';
import { addRequestPackCommands } from './requests-pack';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function actionsOf(values: string[] | undefined): RequestAction[] | undefined {
  if (!values) return undefined;
  for (const action of values) if (!(REQUEST_ACTIONS as readonly string[]).includes(action)) throw invalidInput(`--action takes ${REQUEST_ACTIONS.join(', ')} (got "${action}"); repeat it for several.`);
  return [...new Set(values)] as RequestAction[];
}

/** A profile named with --profile, as its id (the register keeps the id; a renamed profile stays the same). */
async function profileIdOf(desk: Desk, name: string | undefined): Promise<string | undefined> {
  return name === undefined ? undefined : (await desk.findProfile(name)).id;
}

interface FieldOptions {
  received?: string;
  action?: string[];
  uid?: string[];
  profile?: string;
  channel?: RequestChannel;
  requester?: string;
  contact?: string;
  note?: string;
  json?: boolean;
}

function addFieldOptions(command: Command): Command {
  return command
    .option('--received <iso>', 'when the request was received: ISO 8601 with its offset (2026-03-03T09:12:00+01:00)')
    .option('--action <action>', `what is asked: ${REQUEST_ACTIONS.join(' | ')} (repeat for several)`, collect)
    .option('--uid <uid>', 'a uid concerned (repeat for several)', collect)
    .option('--profile <name>', 'the profile (service) the uids belong to')
    .addOption(new Option('--channel <channel>', 'how it came').choices(REQUEST_CHANNELS))
    .option('--requester <name>', 'the requester’s name (encrypted at rest, purged after closing)')
    .option('--contact <contact>', 'the requester’s contact (encrypted at rest, purged after closing)')
    .option('--note <text>', 'a note (kept as written: no personal data beyond the uids)')
    .option('--json', 'print the request as JSON on stdout');
}

/** `requests …`: the request register from the command line, on the same core as the console. */
export function requestsCommand(context: CliContext): Command {
  const { io, out } = context;
  const desk = () => openDesk({ keychain: false }, io.env);
  const print = (view: RequestView, json: boolean | undefined) => (json ? out.json(requestJson(view)) : printRequest(out, view));
  const requests = new Command('requests').description('the request register: erasure requests from receipt to answer, with their legal deadline');

  addFieldOptions(requests.command('add').description('register a request; prints it with its id, status and deadline')).action(async (opts: FieldOptions) => {
    if (!opts.received) throw invalidInput('requests add needs --received: when the request was received, as ISO 8601 with its offset.');
    if (!opts.action?.length) throw invalidInput(`requests add needs --action (${REQUEST_ACTIONS.join(', ')}).`);
    if (!opts.uid?.length) throw invalidInput('requests add needs at least one --uid.');
    const d = await desk();
    const profileId = await profileIdOf(d, opts.profile);
    const requester = opts.requester !== undefined || opts.contact !== undefined ? { ...(opts.requester !== undefined ? { name: opts.requester } : {}), ...(opts.contact !== undefined ? { contact: opts.contact } : {}) } : undefined;
    const view = await d.requests.create({
      receivedAt: opts.received,
      actions: actionsOf(opts.action) as RequestAction[],
      subjects: opts.uid.map((uid) => ({ uid, ...(profileId ? { profileId } : {}) })),
      ...(opts.channel ? { channel: opts.channel } : {}),
      ...(requester ? { requester } : {}),
      ...(opts.note !== undefined ? { notes: opts.note } : {}),
    });
    print(view, opts.json);
  });

  requests
    .command('list')
    .description('the requests, soonest deadline first (closed ones last)')
    .addOption(new Option('--status <status>', 'only this status (open: not answered nor refused)').choices([...REQUEST_STATUSES, 'open', 'closed']))
    .option('--text <text>', 'found in the id, a uid, the notes or the requester (ignoring case and accents)')
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { status?: string; text?: string; json?: boolean }) => {
      const d = await desk();
      await d.requests.purgeDue();
      const views = await d.requests.list({ ...(opts.status ? { status: opts.status as RequestView['status'] } : {}), ...(opts.text ? { text: opts.text } : {}) });
      if (opts.json) out.json({ requests: views.map(requestJson) });
      else printRequestTable(out, views);
    });

  requests
    .command('show')
    .argument('<id>', 'the request’s id (REQ-YYYY-NNNN)')
    .description('one request with its clock, acts and history')
    .option('--with-contact', 'show the requester’s name and contact')
    .option('--json', 'print JSON on stdout')
    .action(async (id: string, opts: { withContact?: boolean; json?: boolean }) => {
      print(await (await desk()).requests.get(id, { withContact: opts.withContact === true }), opts.json);
    });

  addFieldOptions(requests.command('update').argument('<id>', 'the request’s id').description('change what a request says (lists given replace the old ones)'))
    .option('--in-progress', 'mark it in progress (identity checked, work started)')
    .action(async (id: string, opts: FieldOptions & { inProgress?: boolean }) => {
      const d = await desk();
      const profileId = await profileIdOf(d, opts.profile);
      const fields: RequestFields = {
        ...(opts.received ? { receivedAt: opts.received } : {}),
        ...(opts.action ? { actions: actionsOf(opts.action) as RequestAction[] } : {}),
        ...(opts.uid ? { subjects: opts.uid.map((uid) => ({ uid, ...(profileId ? { profileId } : {}) })) } : {}),
        ...(opts.channel ? { channel: opts.channel } : {}),
        ...(opts.note !== undefined ? { notes: opts.note } : {}),
        ...(opts.requester !== undefined || opts.contact !== undefined ? { requester: { ...(opts.requester !== undefined ? { name: opts.requester } : {}), ...(opts.contact !== undefined ? { contact: opts.contact } : {}) } } : {}),
        ...(opts.inProgress ? { status: 'in-progress' as const } : {}),
      };
      if (Object.keys(fields).length === 0) throw invalidInput('requests update needs something to change (--received, --action, --uid, --channel, --requester, --contact, --note or --in-progress).');
      print(await d.requests.apply(id, { kind: 'update', fields }), opts.json);
    });

  addRequestAdminCommands(requests, context, desk, print);
  addRequestPackCommands(requests, context, desk, print);
  addRequestImportCommand(requests, context, desk);
  return requests;
}

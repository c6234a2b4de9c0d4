import { Command } from 'commander';
import { MAX_PER_PAGE, type UserPage, type UserRecord } from '../../shared/users';
import type { Desk } from '../../core/desk';
import type { CliIo } from '../io';
import { listAllUsers } from '../../core/list-all-users';
import { printErasureSteps } from '../erasure-steps';
import { addConnectionOptions, parseTimeoutMs, resolveConnection, type ConnectionOptions } from '../connection';
import { noteLiveData } from '../live-data';
import { linkSingleAct, requestToLink } from '../request-link';
import { markIrreversible, type CliContext } from '../context';
import type { CliOutput } from '../output';
import { parseWholeNumber } from '../parse';
import { formatTable } from '../table';
import { visibleEmail, visibleName, visibleUid } from '../visible-text';

export function usersCommand({ io, out }: CliContext): Command {
  const users = new Command('users').description('list, anonymise and delete users');

  addConnectionOptions(
    users
      .command('list')
      .description('list users, one page or (--all) every page')
      .option('--page <n>', 'page number', '1')
      .option('--per-page <n>', 'users per page (1-100; default 10, or 100 with --all)')
      .option('--all', 'walk every page and print all users')
      .option('--json', 'print JSON on stdout'),
  ).action(async (opts: ConnectionOptions & { page: string; perPage?: string; all?: boolean; json?: boolean }) => {
    const page = parseWholeNumber(opts.page, '--page');
    // A full walk asks for the largest page the service allows: ten times fewer requests than the default 10.
    const perPage = parseWholeNumber(opts.perPage ?? (opts.all ? String(MAX_PER_PAGE) : '10'), '--per-page', { max: MAX_PER_PAGE });
    const { desk, profileId } = await resolveConnection(opts, io.env);
    if (opts.all) {
      const all = await listAll(desk, profileId, perPage, io.stderr, parseTimeoutMs(opts.timeout));
      // Not one page: every page was walked, so no page number or hasNext pretends otherwise (README, "The CLI").
      if (opts.json) out.json({ users: all.users.map((u) => u.fields), total: all.users.length, pagesWalked: all.pagesWalked, perPage });
      else printUsers(out, all.users, `all pages (${all.pagesWalked} walked), ${all.users.length} users`);
      return;
    }
    const result = await desk.listUsers(profileId, { page, perPage });
    if (opts.json) out.json(pageJson(result));
    else printUsers(out, result.users, pageFooter(result));
  });

  for (const action of ['anonymize', 'delete'] as const) {
    const what = action === 'anonymize' ? 'anonymise a user: erase name, e-mail, uid and image; keep contributions' : 'delete a user and all their contributions';
    const command = users
      .command(`${action} <uid>`)
      // The console and the README say "anonymise": both spellings work.
      .aliases(action === 'anonymize' ? ['anonymise'] : [])
      .description(`${what} (irreversible)`)
      .requiredOption('--confirm <uid>', 'repeat the uid exactly, to confirm')
      .option('--reference <ref>', 'ticket or request number, kept in the audit trail')
      .option('--request <id>', 'a request of the register (REQ-YYYY-NNNN): the act is linked to it, and its id is the reference when --reference is not given')
      .option('--no-logout-first', 'do not end the user’s sessions first (by default a logout is sent, then the erasure)')
      .option('--json', 'print the result as JSON on stdout');
    markIrreversible(addConnectionOptions(command)).action(async (uid: string, opts: ConnectionOptions & { confirm: string; reference?: string; request?: string; logoutFirst: boolean; json?: boolean }) => {
      const { desk, profileId } = await resolveConnection(opts, io.env);
      const requestId = await requestToLink(desk, opts.request);
      const reference = opts.reference ?? requestId;
      const profile = await desk.getProfile(profileId);
      noteLiveData(out, profile.baseUrl);
      try {
        const result = await desk.erase({ profileId, action, uid, confirmUid: opts.confirm, reference, logoutFirst: opts.logoutFirst });
        printErasureSteps(out, result, profile.name, opts.json === true);
      } finally {
        // Linked whatever the outcome: an act refused or of unknown outcome is part of the request's file too.
        if (requestId && reference) await linkSingleAct(desk, out, requestId, uid, reference);
      }
    });
  }
  return users;
}

/** Every page; with --timeout, a page that keeps failing is given up after twice that, as a single page is (else two minutes). */
async function listAll(desk: Desk, profileId: string, perPage: number, stderr: CliIo['stderr'], timeoutMs: number | undefined): Promise<{ users: UserRecord[]; pagesWalked: number }> {
  const progress = stderr.isTTY === true;
  let pagesWalked = 0;
  const users = await listAllUsers(
    async (input) => {
      const page = await desk.listUsers(profileId, input);
      pagesWalked += 1;
      return page;
    },
    {
      perPage,
      ...(timeoutMs !== undefined ? { pageRetry: { budgetMs: 2 * timeoutMs } } : {}),
      onProgress: progress ? ({ page, collected, totalPages }) => stderr.write(`\rpage ${page}${totalPages ? ` of ${totalPages}` : ''}, ${collected} users`) : undefined,
    },
  );
  if (progress) stderr.write('\n');
  return { users, pagesWalked };
}

function pageJson(result: UserPage) {
  return {
    users: result.users.map((u) => u.fields),
    page: result.page,
    perPage: result.perPage,
    total: result.total ?? null,
    totalPages: result.totalPages ?? null,
    hasNext: result.hasNext,
  };
}

function pageFooter(result: UserPage): string {
  const of = result.totalPages !== undefined ? ` of ${result.totalPages}` : '';
  const count = result.total !== undefined ? `${result.total} users` : `${result.users.length} users on this page${result.hasNext ? ', more follow' : ''}`;
  return `page ${result.page}${of}, ${count}`;
}

function printUsers(out: CliOutput, users: UserRecord[], footer: string): void {
  if (users.length > 0) {
    out.line(
      formatTable(users, [
        { title: 'UID', value: (u) => (u.uid === null ? '(erased)' : visibleUid(u.uid)), maxWidth: 48 },
        { title: 'FULL NAME', value: (u) => (u.fullName === null ? '' : visibleName(u.fullName)), maxWidth: 32 },
        { title: 'EMAIL', value: (u) => (u.email === null ? '' : visibleEmail(u.email)), maxWidth: 40 },
        { title: 'CREATED', value: (u) => (u.createdAt ?? '').slice(0, 10) },
        { title: 'MESSAGES', value: (u) => String(u.messagesCount ?? ''), align: 'right' },
        { title: 'VOTES', value: (u) => String(u.votesCount ?? ''), align: 'right' },
      ]),
    );
  } else {
    out.line('No users on this page.');
  }
  out.line(footer);
}

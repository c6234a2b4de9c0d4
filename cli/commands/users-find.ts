import type { Command } from 'commander';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_MAX_TEXT, type MatchRange, type UserMatch } from '../../shared/user-search';
import { invalidInput } from '../../shared/errors';
import { addConnectionOptions, parseTimeoutMs, resolveConnection, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';
import { parseWholeNumber } from '../parse';
import { formatTable } from '../table';
import { escapeInvisible, visibleEmail, visibleName, visibleUid } from '../visible-text';

const FIELD_NAMES: Record<MatchRange['field'], string> = { uid: 'uid', fullName: 'name', email: 'e-mail' };

/** `users find TEXT`: every page is walked (100 users a page, a few pages at once), then searched by uid, name or e-mail. */
export function withUsersFind(users: Command, { io, out }: CliContext): Command {
  addConnectionOptions(
    users
      .command('find <text>')
      .description('find a person on any page: by uid, name or e-mail, ignoring case and accents ("emile" finds "Émile")')
      .option('--limit <n>', `most matches to print (1-${SEARCH_MAX_LIMIT})`, String(SEARCH_DEFAULT_LIMIT))
      .option('--json', 'print JSON on stdout'),
  ).action(async (text: string, opts: ConnectionOptions & { limit: string; json?: boolean }) => {
    const limit = parseWholeNumber(opts.limit, '--limit', { max: SEARCH_MAX_LIMIT });
    if (text.trim() === '' || text.length > SEARCH_MAX_TEXT) throw invalidInput(`Give the text to look for: part of a uid, a name or an e-mail (1 to ${SEARCH_MAX_TEXT} characters).`);
    const { desk, profileId } = await resolveConnection(opts, io.env);
    const progress = io.stderr.isTTY === true;
    const timeoutMs = parseTimeoutMs(opts.timeout);
    const built = await desk.indexUsers(profileId, {
      // A page may take twice --timeout, retries included, as for users list; without it, the 15 s someone waiting is given.
      ...(timeoutMs !== undefined ? { pageBudgetMs: 2 * timeoutMs } : {}),
      onProgress: progress ? ({ page, collected, totalPages }) => io.stderr.write(`\rreading page ${page}${totalPages ? ` of ${totalPages}` : ''}, ${collected} users`) : undefined,
    });
    if (progress) io.stderr.write('\n');
    const answer = await desk.searchUsers(profileId, text, limit);
    // Just built: only a clock jump past the time limit could lose it.
    if (answer.state !== 'ready') throw invalidInput('The list of users could not be kept for the search. Run the command again.');
    if (opts.json) {
      out.json({
        text,
        total: answer.total,
        usersSearched: answer.indexedUsers,
        pagesWalked: built.pages,
        matches: answer.matches.map((match) => ({ user: match.user.fields, matched: matchedParts(match) })),
      });
      return;
    }
    if (answer.matches.length > 0) {
      out.line(
        formatTable(answer.matches, [
          { title: 'UID', value: (m) => (m.user.uid === null ? '(erased)' : visibleUid(m.user.uid)), maxWidth: 48 },
          { title: 'FULL NAME', value: (m) => (m.user.fullName === null ? '' : visibleName(m.user.fullName)), maxWidth: 32 },
          { title: 'EMAIL', value: (m) => (m.user.email === null ? '' : visibleEmail(m.user.email)), maxWidth: 40 },
          { title: 'CREATED', value: (m) => (m.user.createdAt ?? '').slice(0, 10) },
          { title: 'MATCHED', value: (m) => matchedParts(m).map((part) => `${FIELD_NAMES[part.field]} “${escapeInvisible(part.text)}”`).join(', '), maxWidth: 40 },
        ]),
      );
    }
    const shown = answer.matches.length < answer.total ? ` (the first ${answer.matches.length} shown: --limit for more)` : '';
    out.line(`${answer.total === 0 ? 'No user matches' : answer.total === 1 ? '1 user matches' : `${answer.total} users match`} “${text.trim()}” among ${answer.indexedUsers} users, ${built.pages} page${built.pages === 1 ? '' : 's'} read${shown}.`);
  });
  return users;
}

/** Each matched part with the text it covers, so a reader sees what matched without counting offsets. */
function matchedParts(match: UserMatch): Array<MatchRange & { text: string }> {
  return match.ranges.map((range) => ({ ...range, text: (match.user[range.field] ?? '').slice(range.start, range.end) }));
}

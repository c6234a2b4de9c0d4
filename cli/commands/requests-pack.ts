import { constants } from 'node:fs';
import { access, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import type { Desk } from '../../core/desk';
import { fileNotWritten } from '../../core/disk-error';
import { ANSWER_PACK_LANGUAGES, type AnswerPack, type AnswerPackOptions } from '../../core/requests/answer-pack';
import { invalidInput } from '../../shared/errors';
import { msg, wordInEnglish } from '../../shared/messages';
import type { RequestChangeInput, RequestView } from '../../shared/requests';
import type { CliContext } from '../context';

interface PackFlags {
  language: AnswerPackOptions['language'];
  withContact?: boolean;
  json?: boolean;
}

function addPackOptions(command: Command): Command {
  return command
    .addOption(new Option('--language <language>', 'language of the receipt and the letter').choices(ANSWER_PACK_LANGUAGES).default('en'))
    .option('--with-contact', 'name the requester in the letter, with their contact (personal data: keep the letter safe)');
}

/** The folder the pack goes to, checked before anything is written (the register included). */
async function checkPackFolder(dir: string): Promise<void> {
  const isFolder = await stat(dir).then((found) => found.isDirectory(), () => false);
  const writable = isFolder && (await access(dir, constants.W_OK).then(() => true, () => false));
  if (!writable) throw invalidInput(msg('answerPack.noFolder', { dir }));
}

/** Both files created 0600, never over an existing one; a letter that cannot be written takes its receipt away with it. */
async function writePack(pack: AnswerPack, dir: string): Promise<void> {
  const paths = { receipt: join(dir, pack.fileNames.receipt), letter: join(dir, pack.fileNames.letter) };
  for (const path of Object.values(paths)) {
    if (await access(path).then(() => true, () => false)) throw invalidInput(msg('answerPack.fileExists', { path }));
  }
  const write = (path: string, content: Buffer | string) =>
    writeFile(path, content, { mode: 0o600, flag: 'wx' }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw invalidInput(msg('answerPack.fileExists', { path }));
      throw fileNotWritten(path, error);
    });
  await write(paths.receipt, pack.receiptPdf);
  await write(paths.letter, pack.letter.text).catch(async (error: unknown) => {
    await unlink(paths.receipt).catch(() => undefined);
    throw error;
  });
}

async function makePack(context: CliContext, desk: Desk, id: string, dir: string, flags: PackFlags): Promise<void> {
  const pack = await desk.requests.answerPack(id, { language: flags.language, withContact: flags.withContact === true });
  await writePack(pack, dir);
  const said = wordInEnglish(msg('answerPack.written', { id: pack.requestId, dir, count: pack.acts, receipt: pack.fileNames.receipt, letter: pack.fileNames.letter, head: pack.headHash ?? '(none)' }));
  // With --json the request's JSON is the result on stdout; what was written is said on stderr.
  if (flags.json) context.out.note(said);
  else context.out.line(said);
  if (flags.withContact) context.out.note(wordInEnglish(msg(pack.namesRequester ? 'answerPack.withContact' : 'answerPack.contactUnreadable')));
  if (!pack.chainVerified) context.out.note(wordInEnglish(msg('answerPack.chainNotVerified')));
}

/**
 * `requests pack ID --out DIR`, and the two ways of closing a request (`close`, `refuse`) with `--pack DIR`: the
 * request is closed, then its answer pack written. A folder that cannot take the pack stops both before anything is written.
 */
export function addRequestPackCommands(requests: Command, context: CliContext, desk: () => Promise<Desk>, print: (view: RequestView, json: boolean | undefined) => void): void {
  addPackOptions(requests.command('pack').argument('<id>', 'the request’s id (REQ-YYYY-NNNN)').description('write the answer pack of an answered or refused request: the receipt PDF of its acts and the letter to the requester'))
    .requiredOption('--out <dir>', 'the folder to write both files into (never over an existing file)')
    .action(async (id: string, opts: PackFlags & { out: string }) => {
      await checkPackFolder(opts.out);
      await makePack(context, await desk(), id, opts.out, opts);
    });

  const closing = (name: string, description: string, changeOf: (opts: { ground?: string }) => RequestChangeInput, options: (c: Command) => Command = (c) => c) =>
    addPackOptions(options(requests.command(name).argument('<id>', 'the request’s id (REQ-YYYY-NNNN)').description(description)))
      .option('--pack <dir>', 'then write its answer pack (receipt and letter) into this folder')
      .option('--json', 'print the request as JSON on stdout')
      .action(async (id: string, opts: PackFlags & { ground?: string; pack?: string }) => {
        if (opts.pack !== undefined) await checkPackFolder(opts.pack);
        const d = await desk();
        const view = await d.requests.apply(id, changeOf(opts));
        print(view, opts.json);
        if (opts.pack !== undefined) await makePack(context, d, view.id, opts.pack, opts);
      });

  closing('refuse', 'refuse the request, with its ground in words (e.g. an Art. 17(3) exception)', (o) => ({ kind: 'refuse', ground: o.ground ?? '' }), (c) => c.requiredOption('--ground <text>', 'the ground of the refusal'));
  closing('close', 'the request is answered: close it (its requester is purged after the settings’ years)', () => ({ kind: 'close' }));
}

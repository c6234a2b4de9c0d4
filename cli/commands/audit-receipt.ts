import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { RECEIPT_LOCALES, type ReceiptLocale } from '../../core/receipt-words';
import type { ReceiptSubject } from '../../core/receipt';
import { invalidInput, PrivacyDeskError } from '../../shared/errors';
import { fileNotWritten } from '../../core/disk-error';
import { openDesk } from '../connection';
import type { CliContext } from '../context';

interface ReceiptFlags {
  reference?: string;
  act?: string;
  lang: ReceiptLocale;
  output?: string;
}

/** `audit receipt`: the PDF a DPO attaches to the request file, for a reference or one act. */
export function addReceiptCommand(audit: Command, { io, out }: CliContext): void {
  audit
    .command('receipt')
    .description('write a PDF receipt of every act under a reference (or of one act): steps, times, outcomes, request ids, entry hashes and the chain head')
    .option('--reference <ref>', 'every act carrying this reference (ignoring case)')
    .option('--act <actId>', 'one act, by its id (audit list --json shows it)')
    .addOption(new Option('--lang <lang>', 'language of the receipt').choices(RECEIPT_LOCALES).default('en'))
    .option('--output <file>', 'write the PDF to this file (default: its own name, privacy-desk-receipt-…pdf, in the current folder)')
    .action(async (opts: ReceiptFlags) => {
      const subject = subjectOf(opts);
      const receipt = await (await openDesk({ keychain: false }, io.env)).receipt(subject, { locale: opts.lang });
      // A PDF is binary: always a file, never the terminal. Without --output, the receipt's own name in the current folder, never overwriting.
      const target = opts.output ?? receipt.fileName;
      try {
        await writeFile(target, receipt.content, { mode: 0o600, flag: opts.output ? 'w' : 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new PrivacyDeskError({ code: 'FILE_WRITE_FAILED', message: `Could not write ${target}: a file of that name exists, and a receipt never replaces one. Give --output FILE.` }, { cause: error });
        }
        throw fileNotWritten(target, error);
      }
      const acts = `${receipt.acts} ${receipt.acts === 1 ? 'act' : 'acts'}`;
      out.line(`Receipt for ${acts} written to ${target}; head hash of the chain: ${receipt.headHash ?? '(none)'}.`);
      if (!receipt.chainVerified) out.note('Warning: the audit trail’s chain does not verify; the receipt says so. Run "privacy-desk audit verify" for where it breaks.');
    });
}

function subjectOf({ reference, act }: ReceiptFlags): ReceiptSubject {
  if (reference !== undefined && act !== undefined) throw invalidInput('Use either --reference or --act, not both.');
  if (reference !== undefined) return { reference };
  if (act !== undefined) return { actId: act };
  throw invalidInput('Say what the receipt covers: --reference REF (every act under a ticket or request number) or --act ACT_ID (one act).');
}

import { PrivacyDeskError, invalidInput } from '../shared/errors';
import type { AuditReading, ChainVerdict } from '../shared/audit';
import { entryHash, isChained } from './audit-chain';
import { actsForReceipt, type ReceiptEntry, type ReceiptSubject } from './receipt-acts';
import { drawReceiptPdf } from './receipt-pdf';
import { RECEIPT_LOCALES, RECEIPT_WORDS, type ReceiptLocale } from './receipt-words';
import { msg } from '../shared/messages';

export type { ReceiptSubject, RequestReceiptSubject } from './receipt-acts';
export type { ReceiptLocale } from './receipt-words';

export interface Receipt {
  fileName: string;
  mimeType: 'application/pdf';
  content: Buffer;
  /** How many acts it covers. */
  acts: number;
  /** The chain head the receipt states, and whether verify passed when it was drawn. */
  headHash: string | null;
  chainVerified: boolean;
}

export interface ReceiptSource {
  /** Every entry of the trail, in file order, with its line and hash. */
  entries: readonly ReceiptEntry[];
  /** What verify answered when the receipt was made. */
  verdict: ChainVerdict;
}

export interface ReceiptOptions {
  locale: ReceiptLocale;
  /** ISO 8601 with offset. */
  generatedAt: string;
  generatorVersion: string;
}

/**
 * A PDF a DPO can attach to the request file: each act of one reference (or
 * one act, or one request of the register) with its requests, outcomes, times, status, request ids and
 * verification, the entries' hashes and the chain head with verify's verdict.
 */
export async function createReceipt(source: ReceiptSource, subject: ReceiptSubject, options: ReceiptOptions): Promise<Receipt> {
  const cleanSubject = checkSubject(subject);
  if (!(RECEIPT_LOCALES as readonly string[]).includes(options.locale)) throw invalidInput(msg('receipt.badLocale', { locale: String(options.locale) }));
  const acts = actsForReceipt(source.entries, cleanSubject);
  // A request answered or refused without any act still gets its receipt: it states that none is recorded, and the chain head.
  if (acts.length === 0 && !('request' in cleanSubject)) {
    throw new PrivacyDeskError({
      code: 'NOT_FOUND',
      outcome: 'not-sent',
      text: 'reference' in cleanSubject ? msg('receipt.nothingUnderReference', { reference: cleanSubject.reference }) : msg('receipt.noSuchAct', { actId: cleanSubject.actId }),
    });
  }
  const content = await drawReceiptPdf({ words: RECEIPT_WORDS[options.locale], subject: cleanSubject, acts, verdict: source.verdict, generatedAt: options.generatedAt, generatorVersion: options.generatorVersion });
  return { fileName: receiptFileName(cleanSubject, options.generatedAt), mimeType: 'application/pdf', content, acts: acts.length, headHash: source.verdict.headHash, chainVerified: source.verdict.ok };
}

/** The receipt's view of a reading of the trail: each entry with its line and its hash as the chain computes it. */
export function receiptSource(reading: AuditReading): ReceiptSource {
  const entries = reading.entries.map(({ line, ...entry }) => ({ entry, line, hash: isChained(entry) ? entryHash(entry) : null }));
  return { entries, verdict: reading.verdict };
}

function checkSubject(subject: ReceiptSubject): ReceiptSubject {
  // A request's subject comes from the register's own view, never typed by a person.
  if ('request' in subject) return subject;
  if ('reference' in subject) {
    // The gate stores references trimmed, so the receipt looks them up the same way.
    const reference = subject.reference.trim();
    if (!reference) throw invalidInput(msg('receipt.noReference'));
    return { reference };
  }
  const actId = subject.actId.trim();
  if (!actId) throw invalidInput(msg('receipt.noActId'));
  return { actId };
}

/** privacy-desk-receipt-<reference or act>-<date>.pdf, with only characters every file system accepts. */
export function receiptFileName(subject: ReceiptSubject, generatedAt: string): string {
  const about = 'reference' in subject ? subject.reference : 'request' in subject ? subject.request.id : `act-${subject.actId.slice(0, 8)}`;
  const safe = about.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|[._]+$/g, '').slice(0, 60) || 'receipt';
  const stamp = generatedAt.slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `privacy-desk-receipt-${safe}-${stamp}.pdf`;
}

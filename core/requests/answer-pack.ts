import { createHash } from 'node:crypto';
import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { CLOSED_STATUSES, type RegisterSettings, type RequestView } from '../../shared/requests';
import { createReceipt, type ReceiptSource } from '../receipt';
import { actsForReceipt, type RequestReceiptSubject } from '../receipt-acts';
import { RECEIPT_LOCALES, type ReceiptLocale } from '../receipt-words';
import { letterOutcomes, writeAnswerLetter } from './answer-letter';
import type { StoredChange } from './register-events';
import { dayInZone, isoInZone } from './time-zone';

/** The languages an answer pack is written in. */
export const ANSWER_PACK_LANGUAGES = RECEIPT_LOCALES;

export interface AnswerPackOptions {
  language: ReceiptLocale;
  /** Name (and write to) the requester in the letter: their name and contact, decrypted for it. Default: neither. */
  withContact?: boolean;
}

/**
 * What a DPO sends to a requester once a request is answered or refused: the receipt of every act done for it and
 * the answer letter. Nothing is sent from here: the front saves or offers the two files.
 */
export interface AnswerPack {
  requestId: string;
  /** The receipt PDF (core/receipt.ts) of every act of the request, with the audit chain's head hash. */
  receiptPdf: Buffer;
  /** The letter to the requester, plain text (UTF-8, LF line ends). */
  letter: { text: string; fileName: string };
  fileNames: { receipt: string; letter: string };
  language: ReceiptLocale;
  /** Whether the letter names the requester: asked for, and their name or contact readable here (not purged, key at hand). */
  namesRequester: boolean;
  /** The acts the receipt covers. */
  acts: number;
  headHash: string | null;
  chainVerified: boolean;
  /** When it was made: ISO 8601 in the register's time zone. */
  generatedAt: string;
}

export interface AnswerPackSource {
  /** The request, read with its requester when the pack names them. */
  view: RequestView;
  settings: RegisterSettings;
  trail: ReceiptSource;
  now: number;
  generatorVersion: string;
}

/** Refuses what no pack can be made of, before anything is read or written. */
export function checkAnswerPackOptions(options: AnswerPackOptions): void {
  const language = options?.language;
  if (!(ANSWER_PACK_LANGUAGES as readonly unknown[]).includes(language)) throw invalidInput(msg('answerPack.badLanguage', { language: String(language).slice(0, 20) }));
}

/** The pack of a closed request; an open one is refused with the reason. */
export async function buildAnswerPack(source: AnswerPackSource, options: AnswerPackOptions): Promise<AnswerPack> {
  checkAnswerPackOptions(options);
  const { view, settings } = source;
  if (!CLOSED_STATUSES.includes(view.status)) throw invalidInput(msg('answerPack.requestOpen', { id: view.id, status: view.status }));
  const generatedAt = isoInZone(source.now, settings.timeZone);
  const subject = { request: requestSubject(view) };
  const receipt = await createReceipt(source.trail, subject, { locale: options.language, generatedAt, generatorVersion: source.generatorVersion });
  const acts = actsForReceipt(source.trail.entries, subject);
  const text = writeAnswerLetter(
    {
      view,
      withContact: options.withContact === true,
      outcomes: letterOutcomes(acts, settings.timeZone),
      acts: acts.length,
      timeZone: settings.timeZone,
      today: dayInZone(new Date(source.now), settings.timeZone),
      receiptFileName: receipt.fileName,
      headHash: receipt.headHash,
      chainVerified: receipt.chainVerified,
    },
    options.language,
  );
  const letterFileName = receipt.fileName.replace(/^privacy-desk-receipt-/, 'privacy-desk-answer-').replace(/\.pdf$/, `-${options.language}.txt`);
  return {
    requestId: view.id,
    receiptPdf: receipt.content,
    letter: { text, fileName: letterFileName },
    fileNames: { receipt: receipt.fileName, letter: letterFileName },
    language: options.language,
    namesRequester: options.withContact === true && view.requester.state === 'shown' && (view.requester.name !== undefined || view.requester.contact !== undefined),
    acts: receipt.acts,
    headHash: receipt.headHash,
    chainVerified: receipt.chainVerified,
    generatedAt,
  };
}

/** The register's event for a pack made: what it said and each file's SHA-256, so a file shown later can be matched. */
export function packChange(pack: AnswerPack): StoredChange {
  return {
    kind: 'pack',
    language: pack.language,
    withContact: pack.namesRequester,
    acts: pack.acts,
    receiptSha256: createHash('sha256').update(pack.receiptPdf).digest('hex'),
    letterSha256: createHash('sha256').update(pack.letter.text, 'utf8').digest('hex'),
  };
}

function requestSubject(view: RequestView): RequestReceiptSubject {
  return {
    id: view.id,
    receivedAt: view.receivedAt,
    deadline: view.clock.deadline,
    extended: view.extension !== undefined,
    ...(view.closedAt && (view.status === 'answered' || view.status === 'refused') ? { closed: { status: view.status, at: view.closedAt } } : {}),
    actIds: view.links.actIds,
    batchJobIds: view.links.batchJobIds,
  };
}

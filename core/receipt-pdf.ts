import { lineVouching, type ChainVerdict } from '../shared/audit';
import { isLocalBaseUrl } from '../shared/profile';
import type { ReceiptAct, ReceiptEntry, ReceiptStep, ReceiptSubject, RequestReceiptSubject } from './receipt-acts';
import { escapedForm, hasAmbiguousSpacing, isDrawable, printable } from './receipt-text';
import type { ReceiptWords } from './receipt-words';

export interface ReceiptContent {
  words: ReceiptWords;
  subject: ReceiptSubject;
  acts: ReceiptAct[];
  verdict: ChainVerdict;
  /** ISO 8601 with offset. */
  generatedAt: string;
  /** The version of Privacy Desk that draws the receipt. */
  generatorVersion: string;
}

const MARGIN = 50;
const LABEL_WIDTH = 150;
const VALUE_X = MARGIN + LABEL_WIDTH + 10;
const BODY_SIZE = 9;
const DATA_SIZE = 8.5;
const ALERT = '#b00020';

type Doc = PDFKit.PDFDocument;

/**
 * Draws the receipt with pdfkit's standard fonts. Every value that comes from
 * the trail or the service is data: drawn as is when the font can, escaped
 * otherwise, and cut into lines by width only (never reflowed at its spaces).
 */
export async function drawReceiptPdf(content: ReceiptContent): Promise<Buffer> {
  // Loaded on demand: the CLI's start-up does not pay for the PDF library.
  const { default: PDFDocument } = await import('pdfkit');
  const { words } = content;
  const created = new Date(content.generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: words.documentTitle, Creator: `Privacy Desk ${content.generatorVersion}`, Producer: 'Privacy Desk', CreationDate: created, ModDate: created },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  drawHeader(doc, content);
  if (!content.verdict.ok) drawBrokenChain(doc, words, content.verdict);
  content.acts.forEach((act, index) => drawAct(doc, words, act, index + 1, content.acts.length, content.verdict));
  drawEntries(doc, words, content.acts, content.verdict);
  drawChain(doc, words, content.verdict);
  drawPageNumbers(doc, words);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

function drawHeader(doc: Doc, { words, subject, generatedAt, generatorVersion, acts }: ReceiptContent): void {
  doc.font('Helvetica-Bold').fontSize(15).text(words.title);
  doc.moveDown(0.3);
  doc.font('Helvetica').fontSize(11).text('reference' in subject ? words.forReference : 'request' in subject ? words.forRequest : words.forAct);
  dataLines(doc, 'reference' in subject ? subject.reference : 'request' in subject ? subject.request.id : subject.actId, MARGIN, doc.page.width - 2 * MARGIN, 11);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(BODY_SIZE).fillColor('#333333').text(words.intro, MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
  doc.fillColor('black').moveDown(0.8);
  row(doc, words.generatedAt, { data: generatedAt });
  row(doc, words.generatedBy, { data: generatorVersion });
  const environments = [...new Set(acts.map(({ first }) => environmentOf(words, first.profileName, first.baseUrl)))];
  row(doc, words.environment, { words: environments.join('\n') || words.notGiven });
  if ('reference' in subject) row(doc, words.reference, { data: subject.reference });
  if ('request' in subject) drawRequestRows(doc, words, subject.request, acts.length);
  if (acts.some((act) => act.entries.some(({ entry }) => !isDrawable(entry.uid)))) {
    doc.moveDown(0.3).font('Helvetica-Oblique').fontSize(BODY_SIZE).text(words.escapedNote, MARGIN, doc.y);
  }
  doc.moveDown(0.5);
}

function drawRequestRows(doc: Doc, words: ReceiptWords, request: RequestReceiptSubject, acts: number): void {
  row(doc, words.requestReceived, { data: request.receivedAt });
  row(doc, words.requestDeadline, { data: request.deadline, ...(request.extended ? { words: words.requestExtended } : {}) });
  if (request.closed) row(doc, words.requestClosed, { words: words.requestClosedAs[request.closed.status], data: request.closed.at });
  if (acts === 0) row(doc, '', { words: words.requestNoActs, strong: true });
}

function drawBrokenChain(doc: Doc, words: ReceiptWords, verdict: Extract<ChainVerdict, { ok: false }>): void {
  const top = doc.y;
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Helvetica-Bold').fontSize(12).fillColor(ALERT).text(words.chainBroken, MARGIN + 8, top + 8, { width: width - 16 });
  doc.font('Helvetica').fontSize(BODY_SIZE).text(words.chainBrokenDetail(words.breakKinds[verdict.kind], verdict.line), { width: width - 16 });
  const bottom = doc.y + 8;
  doc.lineWidth(2).strokeColor(ALERT).rect(MARGIN, top, width, bottom - top).stroke();
  doc.fillColor('black').strokeColor('black').lineWidth(1);
  doc.x = MARGIN;
  doc.y = bottom + 10;
}

function drawAct(doc: Doc, words: ReceiptWords, act: ReceiptAct, index: number, count: number, verdict: ChainVerdict): void {
  ensureRoom(doc, 160);
  const { first } = act;
  heading(doc, words.actHeading(index, count));
  if (isDrawable(first.uid)) {
    // Quoted when its spaces could be miscounted, so the reader sees where it begins and ends.
    row(doc, words.uid, { data: hasAmbiguousSpacing(first.uid) ? `“${first.uid}”` : first.uid });
    if (hasAmbiguousSpacing(first.uid)) row(doc, words.uidEscaped, { data: escapedForm(first.uid) });
  } else {
    row(doc, words.uidEscaped, { data: escapedForm(first.uid) });
    row(doc, '', { words: words.uidEscapedNote });
  }
  if (first.pastedUid !== undefined) row(doc, words.pastedUid, { data: escapedForm(first.pastedUid), words: words.pastedUidNote });
  if (act.actId) row(doc, words.actId, { data: act.actId });
  row(doc, words.reference, first.reference === undefined ? { words: words.noReference } : { data: first.reference });
  row(doc, words.environment, { words: environmentOf(words, first.profileName, first.baseUrl) });
  row(doc, words.operator, first.operator === undefined ? { words: words.notGiven } : { data: first.operator });
  row(doc, words.appVersion, first.appVersion === undefined ? { words: words.notGiven } : { data: first.appVersion });
  row(doc, words.via, { words: words.vias[first.via] ?? words.notGiven, data: first.jobId });
  if (first.test) row(doc, '', { words: words.deliberateTest(first.test.case) });
  if (act.entries.some(({ hash }) => hash === null)) {
    doc.fillColor(ALERT);
    row(doc, '', { words: words.outsideChain, strong: true });
    doc.fillColor('black');
  }
  const beyondBreak = brokenHere(act, verdict, words);
  if (beyondBreak) {
    doc.fillColor(ALERT);
    row(doc, '', { words: beyondBreak, strong: true });
    doc.fillColor('black');
  }
  act.steps.forEach((step, stepIndex) => drawStep(doc, words, step, stepIndex + 1));
  drawVerification(doc, words, act);
  doc.moveDown(0.8);
}

/** What the chain's break means for this act: one of its entries is where it breaks, or they all come after it. */
function brokenHere(act: ReceiptAct, verdict: ChainVerdict, words: ReceiptWords): string | undefined {
  if (verdict.ok) return undefined;
  const atBreak = act.entries.find(({ line }) => lineVouching(verdict, line) === 'at-break');
  if (atBreak) return words.actAtBreak(atBreak.line, atBreak.entry.seq, words.breakKinds[verdict.kind]);
  const breakLine = verdict.unvouched?.from ?? verdict.line;
  return act.entries.some(({ line }) => lineVouching(verdict, line) === 'after-break') ? words.actAfterBreak(breakLine) : undefined;
}

function drawVerification(doc: Doc, words: ReceiptWords, act: ReceiptAct): void {
  const erased = act.steps.some((step) => step.operation !== 'logout');
  if (!erased && !act.verification) return;
  ensureRoom(doc, 70);
  doc.moveDown(0.3).font('Helvetica-Bold').fontSize(BODY_SIZE).text(words.verification, MARGIN + 10, doc.y);
  doc.moveDown(0.2);
  if (!act.verification) {
    row(doc, words.outcome, { words: words.notChecked, strong: true });
    return;
  }
  const { attempt, result } = act.verification;
  row(doc, '', { words: words.verificationMethod });
  if (attempt) row(doc, words.attemptedAt, { data: attempt.entry.at });
  row(doc, words.outcomeAt, { data: result.entry.at });
  const found = result.entry.verification;
  row(doc, words.outcome, { words: found ? words.verifications[found] : words.notChecked, strong: true });
  row(doc, words.httpStatus, result.entry.status === undefined ? { words: words.notGiven } : { data: String(result.entry.status) });
  row(doc, words.requestId, result.entry.requestId === undefined ? { words: words.notGiven } : { data: result.entry.requestId });
  if (result.entry.errorCode) row(doc, words.errorCode, { data: result.entry.errorCode });
}

function drawStep(doc: Doc, words: ReceiptWords, step: ReceiptStep, index: number): void {
  ensureRoom(doc, 70);
  doc.moveDown(0.3).font('Helvetica-Bold').fontSize(BODY_SIZE).text(words.step(index, words.operations[step.operation]), MARGIN + 10, doc.y);
  doc.moveDown(0.2);
  const outcome = step.outcome?.entry;
  row(doc, words.attemptedAt, step.attempt ? { data: step.attempt.entry.at } : { words: words.notGiven });
  row(doc, words.outcomeAt, outcome ? { data: outcome.at } : { words: words.notGiven });
  const outcomeWords = outcome?.batch
    ? words.batchSummary(outcome.batch)
    : outcome?.outcome === 'refused' && outcome.errorCode === 'NOT_FOUND' && step.operation !== 'logout'
      ? words.notFound
      : outcome && outcome.outcome !== 'attempted' && outcome.outcome !== 'verification' && outcome.outcome !== 'summary' && outcome.outcome !== 'acknowledged'
        ? words.outcomes[outcome.outcome]
        : words.noOutcome;
  row(doc, words.outcome, { words: outcomeWords ?? words.noOutcome, strong: true });
  row(doc, words.httpStatus, outcome?.status === undefined ? { words: words.notGiven } : { data: String(outcome.status) });
  row(doc, words.requestId, outcome?.requestId === undefined ? { words: words.notGiven } : { data: outcome.requestId });
  if (outcome?.errorCode) row(doc, words.errorCode, { data: outcome.errorCode });
}

function drawEntries(doc: Doc, words: ReceiptWords, acts: ReceiptAct[], verdict: ChainVerdict): void {
  ensureRoom(doc, 80);
  heading(doc, words.entriesTitle);
  doc.font('Helvetica').fontSize(BODY_SIZE).text(words.entriesIntro, MARGIN, doc.y);
  doc.moveDown(0.3);
  const cited: ReceiptEntry[] = acts.flatMap((act) => act.entries).sort((a, b) => a.line - b.line);
  for (const { entry, line, hash } of cited) {
    const vouching = lineVouching(verdict, line);
    const said = verdict.ok ? undefined : vouching === 'at-break' ? words.entryAtBreak(words.breakKinds[verdict.kind]) : vouching === 'after-break' ? words.entryAfterBreak : undefined;
    if (said) doc.fillColor(ALERT);
    row(doc, words.entryLine(line, entry.seq), hash ? { data: hash, ...(said ? { words: said, strong: true } : {}) } : { words: said ? `${words.noHash} ${said}` : words.noHash });
    if (said) doc.fillColor('black');
  }
  doc.moveDown(0.8);
}

function drawChain(doc: Doc, words: ReceiptWords, verdict: ChainVerdict): void {
  ensureRoom(doc, 80);
  heading(doc, words.chainTitle);
  row(doc, words.headHash, verdict.headHash ? { data: verdict.headHash } : { words: words.noEntries });
  if (verdict.ok) {
    row(doc, '', { words: words.chainVerified(verdict.entries), strong: true });
    if (verdict.legacy) row(doc, '', { words: words.chainPrefix(verdict.legacy) });
    const acknowledged = verdict.anchor?.acknowledged ?? [];
    if (acknowledged.length > 1) row(doc, '', { words: words.acknowledgedCount(acknowledged.length) });
    // Who and why are the trail's data (the operator typed the reason): drawn as data.
    for (const a of acknowledged) row(doc, '', { words: words.acknowledgedBy(acknowledged.length, a.at, printable(a.by)), data: a.reason });
    if (verdict.anchor?.crashes?.length) row(doc, '', { words: words.chainCrashes(verdict.anchor.crashes.length) });
  } else {
    doc.fillColor(ALERT);
    row(doc, '', { words: `${words.chainBroken}. ${words.chainBrokenDetail(words.breakKinds[verdict.kind], verdict.line)}`, strong: true });
    doc.fillColor('black');
  }
}

function heading(doc: Doc, text: string): void {
  doc.font('Helvetica-Bold').fontSize(11).text(text, MARGIN, doc.y);
  doc.moveDown(0.3);
}

/** A label and its value: words (ours, wrapped as prose), data (from the trail: cut by width), or both. */
function row(doc: Doc, label: string, value: { words?: string; data?: string | undefined; strong?: boolean }): void {
  ensureRoom(doc, 30);
  const top = doc.y;
  const valueWidth = doc.page.width - MARGIN - VALUE_X;
  doc.font('Helvetica').fontSize(BODY_SIZE).text(label, MARGIN + 10, top, { width: LABEL_WIDTH - 10 });
  const labelBottom = doc.y;
  doc.y = top;
  if (value.words !== undefined) doc.font(value.strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE).text(value.words, VALUE_X, doc.y, { width: valueWidth });
  if (value.data !== undefined) dataLines(doc, value.data, VALUE_X, valueWidth, DATA_SIZE);
  doc.x = MARGIN;
  doc.y = Math.max(labelBottom, doc.y) + 2;
}

/** Data in Courier, cut into lines by width only, so spaces and every character stay as stored. */
function dataLines(doc: Doc, value: string, x: number, width: number, size: number): void {
  doc.font('Courier').fontSize(size);
  const text = printable(value);
  const lines: string[] = [];
  let line = '';
  for (const character of text) {
    if (line && doc.widthOfString(line + character) > width) {
      lines.push(line);
      line = '';
    }
    line += character;
  }
  lines.push(line);
  for (const part of lines) {
    ensureRoom(doc, size * 1.5);
    doc.text(part, x, doc.y, { lineBreak: false });
    doc.y += doc.currentLineHeight(true);
  }
}

function environmentOf(words: ReceiptWords, profileName: string, baseUrl: string): string {
  return `${printable(profileName)} — ${printable(baseUrl)} (${isLocalBaseUrl(baseUrl) ? words.local : words.live})`;
}

function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) {
    doc.addPage();
    doc.x = MARGIN;
  }
}

function drawPageNumbers(doc: Doc, words: ReceiptWords): void {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    // Below the bottom margin: lift it for the footer so pdfkit does not start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor('#555555');
    doc.text(`${words.documentTitle} — ${words.page(index - start + 1, count)}`, MARGIN, doc.page.height - 35, { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor('black');
}

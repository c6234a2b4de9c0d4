import { message, param } from '../message-text';

/**
 * What verify says of the audit trail (core/audit-chain.ts, core/audit-anchor-check.ts): where the chain breaks and
 * how, and how the trail differs from its anchor. Line and entry numbers are counts; hashes, dates and the reader's
 * description of a corrupt line are data.
 */
export const AUDIT_MESSAGES = {
  'chain.corrupt': message('Line {{line}} is not a readable audit entry ({{problem}}).', { line: param.count, problem: param.textOrPhrase }),
  'chain.unchainedAfter': message('Line {{line}} has no place in the chain (no sequence number and no link): it was added after line {{after}} by hand or by an older Privacy Desk.', { line: param.count, after: param.count }),
  'chain.startRemoved': message('The chain starts at line {{line}} with entry number {{seq}}: entries 1 to {{last}} are missing (the start of the trail was removed).', { line: param.count, seq: param.count, last: param.count }),
  'chain.firstEdited': message('Line {{line}}, the first entry of the chain, was edited: its link to its chain id does not match.', { line: param.count }),
  'chain.secondChain': message('Line {{line}} starts a second chain after line {{after}}: it was not written by this trail (inserted or pasted from another file).', { line: param.count, after: param.count }),
  'chain.insertedSameNumber': message('Line {{line}} was inserted: line {{next}} carries the same number ({{seq}}) and links to line {{previous}}.', { line: param.count, next: param.count, seq: param.count, previous: param.count }),
  'chain.edited': message('Line {{line}} was edited after it was written: line {{next}} recorded a different fingerprint of it.', { line: param.count, next: param.count }),
  'chain.insertedClaim': message('Line {{line}} was inserted: lines {{first}} and {{second}} both claim number {{seq}}.', { line: param.count, first: param.count, second: param.count, seq: param.count }),
  'chain.swapped': message('Lines {{line}} and {{next}} were swapped: entry {{seq}} comes before entry {{expected}}.', { line: param.count, next: param.count, seq: param.count, expected: param.count }),
  'chain.gapOne': message('Entry {{first}} is missing between line {{after}} and line {{line}}: removed from the trail.', { first: param.count, after: param.count, line: param.count }),
  'chain.gapMany': message('Entries {{first}} to {{last}} are missing between line {{after}} and line {{line}}: removed from the trail.', { first: param.count, last: param.count, after: param.count, line: param.count }),
  'chain.outOfOrder': message('Line {{line}} (entry {{seq}}) comes after line {{previous}} (entry {{previousSeq}}): entries were moved out of order.', { line: param.count, seq: param.count, previous: param.count, previousSeq: param.count }),
  'chain.torn': message('The last line (line {{line}}, {{bytes}} bytes) is incomplete: a write was cut short by a crash or a full disk. It is moved to a file of its own the next time the trail is opened for writing.', { line: param.count, bytes: param.count }),
  'chain.headGone': message('No entry has the hash {{hash}} any more: entries were removed from the end of the trail (after line {{last}}), or the trail was rewritten since that hash was written down.', { hash: param.text, last: param.count }),
  'chain.noChain': message(
    {
      one: 'The trail holds {{count}} line and no hash chain: nothing vouches for it. The next entry Privacy Desk writes starts the chain and records this line as it is then.',
      other: 'The trail holds {{count}} lines and no hash chain: nothing vouches for them. The next entry Privacy Desk writes starts the chain and records these lines as they are then.',
    },
    { count: param.count },
  ),
  'chain.prefixUnrecorded': message(
    {
      one: 'Line 1 comes before the chain, and its first entry (line {{line}}) records no earlier lines: nothing shows it was there when the chain started, so it may have been added since. It is not evidence, and receipts do not vouch for it.',
      other: 'Lines 1 to {{count}} come before the chain, and its first entry (line {{line}}) records no earlier lines: nothing shows they were there when the chain started, so they may have been added since. They are not evidence, and receipts do not vouch for them.',
    },
    { count: param.count, line: param.count },
  ),
  'chain.prefixUnreadable': message('Line {{line}}, the first entry of the chain, was edited: its record of the lines before it is not readable.', { line: param.count }),
  'chain.prefixInserted': message(
    {
      one: 'Line 1 comes before the chain, but its first entry (line {{line}}) says {{recorded}} came before it: lines were added before the chain’s start. They are not evidence.',
      other: 'Lines 1 to {{count}} come before the chain, but its first entry (line {{line}}) says {{recorded}} came before it: lines were added before the chain’s start. They are not evidence.',
    },
    { count: param.count, line: param.count, recorded: param.count },
  ),
  'chain.prefixRemoved': message('The chain’s first entry (line {{line}}) says {{recorded}} lines came before it, and only {{found}} are there: lines were removed from the start of the trail.', { line: param.count, recorded: param.count, found: param.count }),
  'chain.prefixEdited': message(
    {
      one: 'Line 1 comes before the chain, as the chain’s first entry (line {{line}}) records, but its fingerprint differs from the one recorded: it was edited.',
      other: 'Lines 1 to {{count}} come before the chain, as many as its first entry (line {{line}}) records, but their fingerprint differs from the one recorded: they were edited.',
    },
    { count: param.count, line: param.count },
  ),
  'chain.intactAfter': message(
    { one: '{{problem}} The chain after them ({{count}} entry) is intact.', other: '{{problem}} The chain after them ({{count}} entries) is intact.' },
    { problem: param.phrase, count: param.count },
  ),

  // How the trail differs from its anchor (core/audit-anchor-check.ts).
  'anchor.held': message('the keychain’s anchor held entry {{seq}} (hash {{hash}}) on {{at}}', { seq: param.count, hash: param.text, at: param.text }),
  'anchor.range.one': message('entry {{from}}', { from: param.count }),
  'anchor.range.many': message('entries {{from}} to {{to}}', { from: param.count, to: param.count }),
  'anchor.now.none': message('no entry'),
  'anchor.now.entry': message('entry {{seq}}, hash {{hash}}', { seq: param.count, hash: param.text }),
  'anchor.endsAt': message('it ends at entry {{seq}}', { seq: param.count }),
  'anchor.endsEmpty': message('it holds no chained entry'),
  'anchor.evidence.none': message('no fragment of it was found'),
  'anchor.evidence.short': message('the only fragment that may be its start ({{bytes}} bytes, in {{file}}) is too short to tell', { bytes: param.count, file: param.text }),
  'anchor.unlanded': message(
    'Inconclusive: a write of {{range}}, announced to the anchor on {{at}} and never confirmed, is not in the trail ({{end}}), and {{evidence}}. Either Privacy Desk stopped before writing it (a crash, a power cut) or it was written and removed since; nothing here tells which.',
    { range: param.phrase, at: param.text, end: param.phrase, evidence: param.phrase },
  ),
  'anchor.unlandedPart': message(
    'Inconclusive: a write of {{range}}, announced to the anchor on {{at}} and never confirmed, reached the trail only in part ({{landed}} is there, {{lost}} not), and {{evidence}}. Either Privacy Desk stopped while writing it (a crash, a power cut) or its last entries were removed since; nothing here tells which.',
    { range: param.phrase, at: param.text, landed: param.phrase, lost: param.phrase, evidence: param.phrase },
  ),
  'anchor.crash': message('A write was cut short by a crash at {{at}} (its fragment is in {{file}}): nothing of it reached the trail.', { at: param.text, file: param.text }),
  'anchor.crashPart': message('A write was cut short by a crash at {{at}} (its fragment is in {{file}}): {{landed}} reached the trail, {{lost}} did not.', { at: param.text, file: param.text, landed: param.phrase, lost: param.phrase }),
  'anchor.emptied': message('The trail holds no chained entry, but {{held}}: all of its entries were removed (the file deleted, emptied or replaced).', { held: param.phrase }),
  'anchor.removed': message(
    {
      one: 'The last entry was removed: the trail ends at entry {{found}}, but {{held}} (taken off the end, or the file replaced by an older copy).',
      other: 'The last {{count}} entries were removed: the trail ends at entry {{found}}, but {{held}} (taken off the end, or the file replaced by an older copy).',
    },
    { count: param.count, found: param.count, held: param.phrase },
  ),
  'anchor.removedAtLeast': message(
    {
      one: 'At least the last entry was removed: the trail ends at entry {{found}}, but {{held}}, and a later write of {{range}} was under way (taken off the end, or the file replaced by an older copy).',
      other: 'At least the last {{count}} entries were removed: the trail ends at entry {{found}}, but {{held}}, and a later write of {{range}} was under way (taken off the end, or the file replaced by an older copy).',
    },
    { count: param.count, found: param.count, held: param.phrase, range: param.phrase },
  ),
  'anchor.rewritten': message('The trail is not the one the anchor vouches for ({{held}}; the trail now has {{now}}): it was rewritten with a recomputed chain, or replaced by another trail.', { held: param.phrase, now: param.phrase }),
  'anchor.unanchored': message('The trail holds {{range}} after the last head the anchor recorded ({{held}}): they are chained, but no write that kept the anchor vouches for them (a Privacy Desk that could not reach this keychain wrote them, or they were added by hand).', { range: param.phrase, held: param.phrase }),
  // What to do about an open finding, one per kind (core/audit-anchor-verdict.ts nextStep).
  'anchor.next.rolledBack': message(
    'What to do: if the file was deleted, emptied or replaced by an older copy on purpose (a backup put back), the entries it lacks are not in it: keep the file or copy that held them with your records, then acknowledge this finding with that reason. If nobody knows why, put back a copy of audit.jsonl that holds them, then verify again.',
  ),
  'anchor.next.rewritten': message(
    'What to do: if audit.jsonl was replaced on purpose (a backup put back, a copy from elsewhere), the entries written to the trail it replaced are not in it: keep that file with your records, then acknowledge this finding with that reason. If nobody knows why, find out who rewrote the file before relying on the trail.',
  ),
  'anchor.next.unanchored': message(
    'What to do: if these entries were written to this data folder by a Privacy Desk that could not reach this keychain (a session without one, another computer), acknowledge this finding with that reason. Otherwise they were added by hand: compare them with your records before relying on them.',
  ),
  'anchor.next.unlanded': message(
    'What to do: if Privacy Desk or this computer stopped around that time (a crash, a power cut), acknowledge this finding with that reason. Otherwise compare the trail with a backup: the write may have been removed.',
  ),
  'anchor.foundEarlier': message('On {{when}}, a write found: {{problem}}', { when: param.text, problem: param.phrase }),

  // Acknowledging a finding (core/audit-anchor-acknowledge.ts): a typed reason, kept in the trail.
  'anchor.ack.reasonShort': message('Say why you acknowledge this finding, in at least {{min}} characters: the reason is kept in the audit trail with your name.', { min: param.count }),
  'anchor.ack.reasonLong': message('The reason is {{length}} characters long: keep it to {{max}}.', { length: param.count, max: param.count }),
  'anchor.ack.reasonControl': message('The reason contains a line break or another control character: write it on one line.'),
  'anchor.ack.unknown': message('No open finding has the id {{finding}}: it is acknowledged already, it was a crash that needs no acknowledgement, or the id is mistyped. Verify the trail again to see the open findings and their ids.', { finding: param.text }),
  'anchor.ack.chainBroken': message('The trail’s chain itself is broken ({{problem}}): an acknowledgement covers a finding of the anchor, never a break in the chain.', { problem: param.phrase }),
  'auditLine.notAcknowledgement': message('"acknowledgement" is not an acknowledgement of a finding'),
  'anchor.ack.noAnchor': message('The anchor could not be read, so its findings cannot be acknowledged now: {{problem}}', { problem: param.text }),
} as const;

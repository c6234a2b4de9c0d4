import { message, param } from '../message-text';

/** Batch erasure (core/batch/, handlers/batch-handlers.ts): refusals before a run, and why a run stopped. */
export const BATCH_MESSAGES = {
  'batch.nothingValid': message('The list has no valid uid to erase. Nothing was sent.'),
  'batch.phraseMismatch': message('To confirm, type {{phrase}} exactly (the operation and the number of uids). Nothing was sent.', { phrase: param.text }),
  'batch.resumePhraseMismatch': message('To confirm, type {{phrase}} exactly (the operation and the number of unfinished uids). Nothing was sent.', { phrase: param.text }),
  'batch.trimNeedsCheck': message('To send uids trimmed, check the list against the service first: only the check tells which trimmed uids exist. Nothing was sent.'),
  'batch.draftGone': message('The list to erase (draft {{draft}}…) is no longer here: drafts are kept for a day, and each is used once. Paste or open the list again. Nothing was sent.', { draft: param.text }),
  'batch.notRecorded': message('Batch job {{job}} stopped while its list was being recorded, before anything was sent. Start the batch again from the list.', { job: param.text }),
  'batch.finished': message('Batch job {{job}} is finished: every item has its outcome. See its results.', { job: param.text }),
  'batch.otherAddress': message('Batch job {{job}} was confirmed for {{confirmed}}, but the profile “{{profile}}” now points at {{now}}. Nothing was sent.', { job: param.text, confirmed: param.text, profile: param.text, now: param.text }),
  'batch.noSuchJob': message('There is no batch job “{{job}}” in {{dataDir}}. See the list of batches (in the CLI: batch list).', { job: param.text, dataDir: param.text }),
  'batch.notRunningHere': message('There is no running batch job “{{job}}” in this app: it has ended, or another process (the CLI) runs it. Refresh the batch list.', { job: param.text }),
  'batch.planUnreadable': message('The plan of batch job {{job}} ({{path}}) cannot be read, so the job was not resumed and nothing was sent. Check that the data folder and its files are readable by you, then try again.', { job: param.text, path: param.text }),
  'batch.fileDamaged': message('{{path}} cannot be used ({{why}}), so the batch job was not run and nothing was sent. The file was changed, removed or damaged outside Privacy Desk: do not repair it by hand. See what the audit trail records for this job, and start the remaining uids as a new batch.', { path: param.text, why: param.phrase }),
  'batch.fileLineDamaged': message('Line {{line}} of {{path}} cannot be used ({{why}}), so the batch job was not run and nothing was sent. The file was changed or damaged outside Privacy Desk: do not repair it by hand. See what the audit trail records for this job, and start the remaining uids as a new batch.', { line: param.count, path: param.text, why: param.phrase }),
  // What is wrong with a batch file (the {{why}} above); the parser's own words, if any, are quoted apart.
  'batch.file.notJson': message('it is not JSON'),
  'batch.file.notAsWritten': message('a field is not as Privacy Desk writes it'),
  'batch.file.otherJob': message('it names another batch job, {{job}}', { job: param.text }),
  'batch.file.otherDraft': message('it names another draft, {{draft}}', { draft: param.text }),
  'batch.file.notEvent': message({ one: 'it is not an event of this job', other: 'it is not an event of this job, nor are other lines ({{count}} in all)' }, { count: param.count }),
  'batch.file.missing': message('it is missing'),
  'batch.file.unreadable': message('it cannot be read'),
  // The job list: a job whose files cannot be used is shown as damaged, never offered for resuming.
  'batch.damaged.file': message('{{path}} cannot be used ({{why}}), so batch job {{job}} cannot be resumed: nothing more will be sent from it. The file was changed, removed or damaged outside Privacy Desk: do not repair it by hand. What the job already sent is in the audit trail (its entries name job {{job}}); start the uids it did not finish as a new batch.', { path: param.text, why: param.phrase, job: param.text }),
  'batch.damaged.line': message('Line {{line}} of {{path}} cannot be used ({{why}}), so batch job {{job}} cannot be resumed: nothing more will be sent from it. The file was changed or damaged outside Privacy Desk: do not repair it by hand. What the job already sent is in the audit trail (its entries name job {{job}}); start the uids it did not finish as a new batch.', { line: param.count, path: param.text, why: param.phrase, job: param.text }),
  'batch.damaged.unreadable': message('{{path}} cannot be read, so batch job {{job}} cannot be resumed: nothing will be sent from it while it cannot be read. Check that the data folder and its files are readable by you; what the job already sent is in the audit trail (its entries name job {{job}}).', { path: param.text, job: param.text }),
  'batch.journalNotWritten': message('Privacy Desk could not write the journal of batch job {{job}}, so it stopped sending. Free disk space or fix the data folder’s rights, then resume the job.', { job: param.text }),
  'batch.journalNotOpened': message('Privacy Desk could not open {{path}}, so the batch job was not resumed. Check that it is readable and writable by you.', { path: param.text }),
  'batch.runLockBusy': message('Batch job {{job}} is already being run by another Privacy Desk process (the app or a CLI command), so this one sent nothing. Let that run finish, or stop it and resume the job here. If no other Privacy Desk is running, wait {{seconds}} s (a crashed run’s lock expires) and try again.', { job: param.text, seconds: param.count }),
  // Who holds a job's run lock (core/batch/lock-holder.ts): said when it is refused, in the job list and in the window.
  'batch.holder.here': message('process {{pid}} on this computer ({{host}}) since {{since}}, holding the lock {{path}}', { pid: param.text, host: param.text, since: param.text, path: param.text }),
  'batch.holder.elsewhere': message('process {{pid}} on another computer ({{host}}) since {{since}}, holding the lock {{path}}', { pid: param.text, host: param.text, since: param.text, path: param.text }),
  'batch.runLockHeld': message('Batch job {{job}} is being run by {{holder}}, so this one sent nothing. Let that run finish, or stop it there (Cancel batch in the app, Ctrl-C in a terminal), then resume the job here.', { job: param.text, holder: param.phrase }),
  'batch.runLockHeldElsewhere': message('Batch job {{job}} is being run by {{holder}}, so this one sent nothing. Let that run finish, or stop it there, then resume the job here. Whether that process still runs cannot be seen from this computer: if it stopped without letting go, its lock expires {{seconds}} s after its last refresh, and the job can be resumed then.', { job: param.text, holder: param.phrase, seconds: param.count }),
  'batch.runLockFailed': message('Privacy Desk could not lock batch job {{job}} ({{path}}), so nothing was sent. Check that the data folder is writable by you, then try again.', { job: param.text, path: param.text }),
  'batch.runLockLost': message('Privacy Desk lost the run lock of batch job {{job}} ({{path}} was removed or taken over, for example after the computer slept). It stopped sending to avoid two runs of one job: check that no other run is going on, then resume the job.', { job: param.text, path: param.text }),
  'batch.silentService': message('the service has answered nothing for {{seconds}} s: {{last}}', { seconds: param.count, last: param.phrase }),
  'batch.stopped': message(
    {
      one: 'Batch job {{job}} stopped: {{why}} Nothing more was sent; {{count}} item is unfinished. Once this is fixed, resume the job (it finishes only what is unfinished).',
      other: 'Batch job {{job}} stopped: {{why}} Nothing more was sent; {{count}} items are unfinished. Once this is fixed, resume the job (it finishes only what is unfinished).',
    },
    { job: param.text, why: param.phrase, count: param.count },
  ),
  'batch.stoppedWait': message(
    {
      one: 'Batch job {{job}} stopped: {{why}} Nothing more was sent; {{count}} item is unfinished. After that time, resume the job (it finishes only what is unfinished).',
      other: 'Batch job {{job}} stopped: {{why}} Nothing more was sent; {{count}} items are unfinished. After that time, resume the job (it finishes only what is unfinished).',
    },
    { job: param.text, why: param.phrase, count: param.count },
  ),
  'batch.unexpected': message('an unexpected error.'),
  'batch.waitTooLong': message('the service answered 429 (too many requests) and asked to wait {{wait}}, until {{until}}, longer than a batch waits ({{minutes}} minutes).', { wait: param.phrase, until: param.textOrPhrase, minutes: param.count }),
  'batch.farDate': message('a date too far to name'),

  // core/batch/run-batch.ts, results.ts: why an item ended as it did (the results' reason column).
  'batch.reason.doneBefore': message('A 404 on a retry after an attempt that got no clear answer: that attempt most likely erased the user. A uid that never existed answers the same; a check against the service before the run tells them apart.'),
  'batch.reason.rateLimited': message('The service answered 429 (too many requests) {{count}} times in a row. {{last}}', { count: param.count, last: param.phrase }),
  'batch.withdrawn': message('Not sent: the run was paused or stopped after this item was recorded and before its request left. It is sent when the run goes on.'),
  'batch.reason.tried': message('Tried {{count}} times over {{duration}}; the last attempt: {{last}}', { count: param.count, duration: param.phrase, last: param.phrase }),
  'batch.reason.triedMayHaveReached': message('Tried {{count}} times over {{duration}}; the last attempt: {{last}} An attempt may have reached the service: check the user before acting again.', { count: param.count, duration: param.phrase, last: param.phrase }),
  /** A reason recorded before reasons were messages: its English words, shown as they were written. */
  'batch.reason.recorded': message('{{words}}', { words: param.text }),
  'batch.reason.lastUnknown': message('last attempt: outcome unknown — it is re-checked when the job is resumed'),
  'batch.reason.lastUnknownBecause': message('last attempt: outcome unknown ({{why}}) — it is re-checked when the job is resumed', { why: param.phrase }),
  'batch.reason.lastNotSent': message('last attempt not sent: nothing reached the service — it is sent when the job is resumed'),
  'batch.reason.lastNotSentBecause': message('last attempt not sent: {{why}} — it is sent when the job is resumed', { why: param.phrase }),

  // core/batch/parse-input.ts, text-chunks.ts: reading the list.
  'batch.listHasNoColumns': message('The input was read as a list (one uid a line, no columns), so there is no column “{{column}}” for {{role}} to pick. For a CSV or TSV file, check its separator and header row; for a list, pick no column. Nothing was sent.', { column: param.text, role: param.phrase }),
  'batch.noColumnNumber': message('There is no column {{column}} for {{role}}: the first row has {{columns}} column(s), numbered from 0. Pick one of these.', { column: param.count, role: param.phrase, columns: param.count }),
  'batch.noColumnNumberNamed': message('There is no column {{column}} for {{role}}: the first row has {{columns}} column(s), numbered from 0; columns found: {{names}}. Pick one of these.', { column: param.count, role: param.phrase, columns: param.count, names: param.text }),
  'batch.noColumnNamed': message('There is no column named “{{column}}” for {{role}}; columns found: {{names}}. Pick one of these (names are matched exactly).', { column: param.text, role: param.phrase, names: param.text }),
  'batch.noHeaderRow': message('Cannot pick the column “{{column}}” for {{role}} by name: the input has no header row. Pick the column by its number instead.', { column: param.text, role: param.phrase }),
  'batch.listLooksDelimited': message(
    {
      one: 'Read as a list (one uid a line), {{count}} line of {{lines}} holds {{separator}} (line {{line}}: “{{excerpt}}”), so the input looks like rows of columns that were not split: each whole line would be sent as one uid and end “not found”, and those users would keep their data. Choose the separator (and the uid column); if each whole line really is one uid, choose to read the input as a list, one uid a line. Nothing was sent.',
      other: 'Read as a list (one uid a line), {{count}} of {{lines}} lines hold {{separator}} (the first, line {{line}}: “{{excerpt}}”), so the input looks like rows of columns that were not split: each whole line would be sent as one uid and end “not found”, and those users would keep their data. Choose the separator (and the uid column); if each whole line really is one uid, choose to read the input as a list, one uid a line. Nothing was sent.',
    },
    { count: param.count, lines: param.count, separator: param.phrase, line: param.count, excerpt: param.text },
  ),
  'batch.separator.comma': message('a comma (,)'),
  'batch.separator.semicolon': message('a semicolon (;)'),
  'batch.separator.tab': message('a tab'),
  'batch.role.uid': message('the uid'),
  'batch.role.reference': message('the reference'),
  'batch.lineTooLong': message('Line {{line}} is longer than {{limit}} characters, the most a line of a batch list may have; reading stopped there. A list has one uid a line (at most 1,024 characters), so this is probably not the file you meant, or its lines are not separated by line breaks. Nothing was sent.', { line: param.count, limit: param.count }),
  'batch.quoteNeverClosed': message('Line {{line}} is longer than {{limit}} characters, the most a line of a batch list may have; reading stopped there. A quote (") opened on line {{quoteLine}} is never closed, so the rest of the file reads as one cell. Close the quote, or save the file again from the spreadsheet. Nothing was sent.', { line: param.count, limit: param.count, quoteLine: param.count }),
} as const;

import { message, param } from '../message-text';

/** The request register (core/requests/): refusals before anything is written, a damaged register, and what `audit verify` finds in it. */
export const REQUEST_MESSAGES = {
  'lock.what.requests': message('the request register'),
  // The clock's inputs (core/requests/clock-input.ts): what to write instead.
  'clock.noOffset': message('{{field}} {{value}} has no time zone offset: add Z or the offset it was written in (+01:00), for example {{example}}.', { field: param.text, value: param.text, example: param.text }),
  'clock.notInstant': message('{{field}} {{value}} is not an ISO 8601 date and time with its offset, for example {{example}}.', { field: param.text, value: param.text, example: param.text }),
  'clock.badNow': message('The current time is not a valid date (got {{value}}).', { value: param.text }),
  'clock.badPauseSetting': message('“Pause stops the clock” must be true or false (got {{value}}).', { value: param.text }),
  'clock.pausesNotList': message('The pauses must be a list (empty when the clock was never paused).'),
  'clock.onePauseOpen': message('Only the latest pause may still be open (without an end): end the earlier one before another begins.'),
  'clock.pauseBeforeReceipt': message('{{field}} {{value}} is before the request was received: a clock cannot stop before it starts.', { field: param.text, value: param.text }),
  'clock.pauseEndsBeforeStart': message('{{field}} {{value}} is before the pause began ({{from}}).', { field: param.text, value: param.text, from: param.text }),
  'clock.extensionBeforeReceipt': message('{{field}} is before the request was received: an extension comes after the request.', { field: param.text }),
  'requests.notFound': message('There is no request {{id}} in this data folder’s register. Check the id (REQ-YYYY-NNNN) in the list of requests.', { id: param.text }),
  'requests.invalid': message('The request was not saved: {{field}} {{problem}}. Correct it and try again; nothing was written.', { field: param.text, problem: param.text }),
  'requests.closed': message('Request {{id}} is closed ({{status}}): it can no longer be changed, only its acts linked or its personal data purged. Nothing was written.', { id: param.text, status: param.text }),
  'requests.alreadyPaused': message('Request {{id}} is already waiting for the requester’s identity (its clock paused since {{since}}). Nothing was written.', { id: param.text, since: param.text }),
  'requests.notPaused': message('Request {{id}} is not waiting for the requester’s identity: there is no paused clock to resume. Nothing was written.', { id: param.text }),
  'requests.pauseBeforeReceipt': message('A pause of request {{id}} cannot start or end at {{at}}: that is before the request was received or before the pause began. Nothing was written.', { id: param.text, at: param.text }),
  'requests.alreadyExtended': message('Request {{id}} was already extended on {{decidedAt}}: the period can be extended once, by two months. Nothing was written.', { id: param.text, decidedAt: param.text }),
  'requests.extendLate': message(
    'Request {{id}} cannot be extended: an extension must be decided and the person told within the first period, which ended on {{deadline}}, and {{late}} is after it. Answer the request, or refuse it with its ground. Nothing was written.',
    { id: param.text, deadline: param.text, late: param.text },
  ),
  'requests.extendBeforeReceipt': message('Request {{id}} cannot be extended at {{at}}: that is before the request was received. Nothing was written.', { id: param.text, at: param.text }),
  'requests.notClosed': message('Request {{id}} is still open: the requester’s name and contact are purged only once a request is answered or refused. Nothing was written.', { id: param.text }),
  'requests.purged': message('Request {{id}} was purged on {{at}}: its requester’s name and contact are gone for good and cannot be changed. Nothing was written.', { id: param.text, at: param.text }),
  'requests.fileDamaged': message(
    'Line {{line}} of the request register {{path}} cannot be read ({{problem}}): the file was changed outside Privacy Desk. Check the audit trail (verify), and restore the file from a backup. Nothing was written.',
    { line: param.count, path: param.text, problem: param.text },
  ),
  'requests.keysDamaged': message('The register’s key file {{path}} cannot be read ({{problem}}): the requesters’ names and contacts cannot be read or written. Restore it from a backup. Nothing was written.', { path: param.text, problem: param.text }),
  'requests.settingsDamaged': message('The register’s settings file {{path}} cannot be read ({{problem}}): the defaults are not used in its place. Correct or delete the file, then try again.', { path: param.text, problem: param.text }),
  'requests.badTimeZone': message('{{zone}} is not a time zone this computer knows: give an IANA name such as Europe/Paris. Nothing was written.', { zone: param.text }),
  'requests.badCountry': message('{{country}} is not a country the holiday calendar knows: give its two-letter code, such as FR or DE. Nothing was written.', { country: param.text }),
  'requests.sealFailed': message('The requester’s name and contact could not be encrypted, because the register’s key could not be read or kept in the keychain. Nothing was written.'),
  'requests.unreadable': message('Encrypted with a key this computer does not hold (another keychain, or the session of a command run without one).'),
  // What `audit verify` finds when it compares the register with the audit trail.
  'register.edited': message('Line {{line}} of the request register was changed after it was written: its SHA-256 is not the one audit entry {{auditLine}} recorded for it.', { line: param.count, auditLine: param.count }),
  'register.removed': message('Event {{event}} of the request register ({{change}} of {{id}}, audit entry {{auditLine}}) is no longer in it: it was removed.', { event: param.count, change: param.text, id: param.text, auditLine: param.count }),
  'register.reordered': message('The request register’s events are out of order: line {{line}} holds the event the audit trail recorded at line {{auditLine}} for another place.', { line: param.count, auditLine: param.count }),
  'register.unaudited': message('Line {{line}} of the request register has no entry in the audit trail: it was added outside Privacy Desk, or written when the audit trail could not be.', { line: param.count }),
  'register.corrupt': message('Line {{line}} of the request register cannot be read: the file was changed outside Privacy Desk.', { line: param.count }),
  'auditLine.notRegister': message('"register" is not a change of the request register'),
} as const;

import { message, param } from '../message-text';

/** Failures on this computer: input rules, profiles, keychain, audit trail, the gate, receipts, locks, the bridge. */
export const LOCAL_MESSAGES = {
  // core/input-problems.ts: the shared input rules (shared/uid.ts, shared/profile.ts, shared/reference.ts).
  'uid.empty': message('The uid is empty. Enter the uid exactly as the client application knows the user.'),
  'uid.tooLong': message('The uid is {{length}} characters long; uids are at most {{max}}. Check that you pasted only the uid.', { length: param.count, max: param.count }),
  'uid.control': message('The uid contains a control character (such as a line break or tab), probably from a paste. Remove it and try again.'),
  'uid.invalidUnicode': message('The uid contains a broken character (half of a UTF-16 surrogate pair), probably from a paste that was cut short. Paste the whole uid again.'),
  'uid.dotSegment': message('The uid “{{uid}}” cannot be sent in a request path. Check the uid; if it is really this, contact the service.', { uid: param.text }),
  'reference.tooLong': message('The reference is {{length}} characters long; references are at most {{max}}. Enter only the ticket or request number.', { length: param.count, max: param.count }),
  'baseUrl.required': message('Enter the service’s address, for example https://debate.example.com'),
  'baseUrl.notAUrl': message('“{{input}}” is not a web address. Enter the service’s address, for example https://debate.example.com', { input: param.text }),
  'baseUrl.scheme': message('The address must start with https:// (it starts with {{protocol}}//).', { protocol: param.text }),
  'baseUrl.httpsRequired': message('The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).'),
  'baseUrl.credentials': message('Remove the user name and password from the address; credentials go in the key fields.'),
  'baseUrl.queryOrFragment': message('Remove the part after ? or # from the address; enter only the service’s base address.'),
  // A problem, then what it means for the act.
  'input.nothingSent': message('{{problem}} Nothing was sent.', { problem: param.phrase }),
  'input.nothingSentForUid': message('{{problem}} Nothing was sent for this uid.', { problem: param.phrase }),

  // core/desk-profiles.ts, core/profile-store.ts: profiles.
  'profile.incomplete': message('The profile is incomplete or not valid ({{fields}}). Correct it and save again.', { fields: param.text }),
  'profile.nameRequired': message('Give the profile a name.'),
  'profile.applicationRequired': message('Enter the application name (its short name in the service’s administration panel).'),
  'profile.addressMoved': message('“{{name}}” would move from {{from}} to {{to}}: enter the API key and the secret key again. Stored credentials are only ever sent to the address they were entered for. Nothing was saved.', { name: param.text, from: param.textOrPhrase, to: param.text }),
  'profile.nameMismatch': message('The name you typed does not match the profile name “{{name}}”; nothing was removed. Type the name exactly (case counts).', { name: param.text }),
  'profile.nameTaken': message('A profile named “{{name}}” already exists (names are compared ignoring case). Choose another name, or edit that profile.', { name: param.text }),
  'profile.notFound': message('There is no profile “{{profile}}”. Choose one of the profiles listed (in the CLI: privacy-desk profiles list).', { profile: param.text }),
  'profile.storeCorrupt': message('The profile list {{path}} cannot be used: {{reason}}. Nothing was changed and no profile can be saved until this is resolved. Repair the file (for example from a backup), or start fresh: the damaged file is then kept aside as profiles.json.corrupt-<time> (CLI: privacy-desk profiles start-fresh).', { path: param.text, reason: param.phrase }),
  'profile.storeUnreadable': message('it cannot be read'),
  'profile.storeNotJson': message('it is not valid JSON'),
  'profile.storeBadShape': message('it does not have the expected shape ({{where}})', { where: param.text }),

  // core/desk.ts, core/desk-profiles.ts: credentials.
  'credentials.missing': message('Enter the API key and the secret key (Configuration > General in the service’s administration panel).'),
  'credentials.apiKeyRequired': message('Enter the API key.'),
  'credentials.apiSecretRequired': message('Enter the secret key.'),
  'credentials.sessionOnly': message('No API key and secret are known for “{{profile}}”: without a working keychain they are kept only for the session in which they were entered. Enter them again in the profile.', { profile: param.text }),
  'credentials.notStored': message('No API key and secret are stored for “{{profile}}” in the keychain. Edit the profile and enter them again.', { profile: param.text }),
  'credentials.otherOrigin': message('The API key and secret of “{{profile}}” were entered for {{from}}, but the profile now points at {{to}}. They are never sent anywhere else: edit the profile and enter the key and secret again. Nothing was sent.', { profile: param.text, from: param.textOrPhrase, to: param.text }),

  // core/keytar-credential-store.ts: the system keychain (the system's own message follows as a technical detail).
  'keychain.timeout': message('The system keychain did not answer within {{seconds}} s (it may be locked and waiting for a password prompt). Unlock your keyring and restart Privacy Desk. Until then, credentials are kept in memory for this session only.', { seconds: param.count }),
  'keychain.noDbus': message('No D-Bus session is reachable, so the Secret Service keychain cannot be used. Run Privacy Desk inside your desktop session (or under dbus-run-session) with a Secret Service provider: install and start gnome-keyring (sudo apt-get install gnome-keyring) or another provider such as KeePassXC. Until then, credentials are kept in memory for this session only.'),
  'keychain.noProvider': message('No Secret Service provider answers on D-Bus. Install and start gnome-keyring (sudo apt-get install gnome-keyring) or another Secret Service provider such as KeePassXC. Until then, credentials are kept in memory for this session only.'),
  'keychain.locked': message('The keyring is locked. Unlock your keyring (log in to the desktop session, or unlock it in your keyring manager), then restart Privacy Desk. Until then, credentials are kept in memory for this session only.'),
  'keychain.other': message('The system keychain could not be used. Check that your keychain is available and unlocked, then restart Privacy Desk. Until then, credentials are kept in memory for this session only.'),

  // core/desk.ts: other refusals before anything is sent.
  'desk.badPage': message('Page must be 1 or more and users per page between 1 and 100.'),
  'desk.simulateLive': message('Simulating a login is for the sandbox on this computer only: “{{profile}}” is live data, so nothing was sent.', { profile: param.text }),
  'desk.exportFormat': message('Unknown export format “{{format}}”: choose csv or json.', { format: param.text }),

  // core/service/erasure-gate.ts: validation, confirmation and the audit record around every act.
  'gate.unknownAction': message('Unknown action “{{action}}”: only anonymize or delete can be sent. Nothing was sent.', { action: param.text }),
  'gate.uidMismatch': message('The uid you typed does not match the uid to {{verb}}; nothing was sent. Type the uid again exactly (spaces, case and accents count).', { verb: param.phrase }),
  'gate.afterLogoutStep': message('{{problem}} (The logout step before it was sent and recorded: {{outcome}}.)', { problem: param.phrase, outcome: param.phrase }),
  'gate.notRecordedNotSent': message('{{problem}} Nothing was sent: no act happens without its audit record.', { problem: param.phrase }),
  'gate.notRecordedNothingMore': message('{{problem}} Nothing more was sent: no act happens without its audit record.', { problem: param.phrase }),
  'gate.notRecordedNotErased': message('{{problem}} The user was not {{done}}: nothing more was sent. Try again once the audit trail can be written.', { problem: param.phrase, done: param.phrase }),
  'gate.outcomeNotRecorded': message('{{what}} (status {{status}}), but the audit trail could not record the outcome. Do not repeat the action; note the outcome by hand and check the disk.', { what: param.phrase, status: param.textOrPhrase }),
  'gate.checkNotRecorded': message('The user was {{done}} and that is recorded; the check afterwards found “{{verification}}”, but the audit trail could not record it. Do not repeat the action; note the check by hand and check the disk.', { done: param.phrase, verification: param.text }),
  'gate.unexpectedError': message('An unexpected error ended {{purpose}}: its outcome is unknown.', { purpose: param.phrase }),
  'gate.logoutAccepted': message('The logout was accepted'),
  'gate.logoutAnswered': message('The logout was answered'),
  'gate.erased': message('The user was {{done}}', { done: param.phrase }),
  'gate.erasedAndChecked': message('The user was {{done}} and the check afterwards found: {{verification}}', { done: param.phrase, verification: param.text }),

  // core/audit-log.ts: the audit trail on disk (the system's error code follows as a technical detail).
  'audit.notWritten': message('The audit trail {{path}} could not be written: {{why}}. {{fix}}, then try again.', { path: param.text, why: param.phrase, fix: param.phrase }),
  'audit.couldNotWrite': message('The audit trail could not be written.'),
  'audit.why.diskFull': message('the disk is full'),
  'audit.why.fileTooBig': message('the audit file reached the largest size this process may write (a file size limit)'),
  'audit.why.fullOrLimit': message('the disk is full or the file reached its size limit'),
  'audit.why.quota': message('your disk quota is used up'),
  'audit.why.permission': message('permission denied'),
  'audit.why.readOnly': message('the disk is read-only'),
  'audit.why.folderInTheWay': message('a folder stands where the file should be'),
  'audit.why.ioError': message('the disk reported an input/output error'),
  'audit.why.other': message('the system refused the write'),
  'audit.fix.writable': message('Make the file and its folder writable by you'),
  'audit.fix.space': message('Free some disk space (or raise the limit)'),

  // core/receipt.ts.
  'receipt.badLocale': message('Receipts are written in English (en) or French (fr), not “{{locale}}”.', { locale: param.text }),
  'receipt.noReference': message('Give the reference (ticket or request number) whose acts the receipt covers.'),
  'receipt.noActId': message('Give the id of the act the receipt covers.'),
  'receipt.nothingUnderReference': message('No act in the audit trail carries the reference “{{reference}}”. Check the reference (the whole reference, case aside) or list the trail.', { reference: param.text }),
  'receipt.noSuchAct': message('No act in the audit trail has the id “{{actId}}”. Copy the act id from the audit trail.', { actId: param.text }),

  // core/data-lock.ts: the data folder's locks.
  'lock.busy': message('Another Privacy Desk process (the app or a CLI command) is changing {{what}} in {{dataDir}}, so nothing was changed. Try again in a moment. If no other Privacy Desk is running, a crashed one left its lock behind: delete the folder {{lockPath}} and try again.', { what: param.phrase, dataDir: param.text, lockPath: param.text }),
  'lock.busyWaited': message('Another Privacy Desk process (the app or a CLI command) is changing {{what}} in {{dataDir}} and did not finish within {{seconds}} s, so nothing was changed. Try again in a moment. If no other Privacy Desk is running, a crashed one left its lock behind: delete the folder {{lockPath}} and try again.', { what: param.phrase, dataDir: param.text, seconds: param.count, lockPath: param.text }),
  'lock.failed': message('Privacy Desk could not lock {{what}} in {{dataDir}}, so nothing was changed. Check that the folder {{dataDir}} is writable by you, then try again.', { what: param.phrase, dataDir: param.text }),
  'lock.lost': message('Privacy Desk lost its lock on {{what}} in {{dataDir}} while changing it ({{lockPath}} was removed or taken over, for example after the computer slept or the disk stalled). The change may not have been saved: check it, then try again.', { what: param.phrase, dataDir: param.text, lockPath: param.text }),
  'lock.what.profiles': message('the profile list'),
  'lock.what.audit': message('the audit trail'),

  // handlers/, web-host/, renderer/bridge/: the bridge between the window and the core.
  'bridge.unknownMethod': message('Privacy Desk has no operation called “{{method}}”. Reload the window; if it persists, the app and its page are out of step.', { method: param.text }),
  'bridge.badInput': message('The request “{{method}}” was refused before anything was sent: a value is not valid ({{fields}}). Correct the value and try again.', { method: param.text, fields: param.text }),
  'bridge.notConnected': message('This page is not connected to Privacy Desk: open the address printed by “npm run web”.'),
  'bridge.otherSite': message('Refused: this request came from another site.'),
  'bridge.foreignPage': message('Refused: this request came from a page that is not Privacy Desk.'),
  'bridge.jsonRequired': message('Bridge calls must send a JSON body (Content-Type: application/json).'),
  'bridge.bodyNotJson': message('The request body is not valid JSON. Reload the page and try again.'),
  'bridge.tooLarge': message('The request “{{method}}” is larger than {{limit}} and was refused before anything was sent.', { method: param.text, limit: param.phrase }),
  'bridge.tooLargeList': message('The request “{{method}}” is larger than {{limit}} and was refused before anything was sent. Split the list into smaller files and run them one after the other, or run it with the CLI (privacy-desk batch), which reads a file of any size.', { method: param.text, limit: param.phrase }),
  'bridge.hostGone': message('Privacy Desk’s local web host did not answer. Check that “npm run web” is still running, then retry.'),
  'bridge.hostUnknownAction': message('The web host does not know the “{{method}}” action. Restart “npm run web” so page and host are the same version.', { method: param.text }),
  'bridge.hostUnusable': message('The web host answered {{status}} without a usable result. Retry; if it persists, restart “npm run web”.', { status: param.count }),
  'bridge.noEventStream': message('The web host answered {{status}} instead of its event stream. Restart “npm run web” so page and host are the same version.', { status: param.count }),
  'bridge.appUnknownAction': message('This version of Privacy Desk has no “{{method}}” action. Restart the app; if it persists, reinstall it.', { method: param.text }),
  'bridge.appUnknownEvent': message('This version of Privacy Desk cannot follow “{{event}}” events. Restart the app; if it persists, reinstall it.', { event: param.text }),
  'bridge.noEventChannel': message('This window cannot follow long work (no event channel): reload it.'),
  'bridge.missingWindow': message('The built window is missing ({{path}}). Run “npm run web”, which builds it first, or “npx vite build”.', { path: param.text }),
} as const;

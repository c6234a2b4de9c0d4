import { message } from '../message-text';

/**
 * What each error code means in words that are true of every error with that code: the window shows it
 * when a message id is missing or unknown to it (an older window, a newer core). Never more specific than that.
 */
export const CODE_MESSAGES = {
  'code.INVALID_CREDENTIALS': message('The service refused this profile’s API key or secret key. Check both against Configuration > General in the service’s administration panel.'),
  'code.INSUFFICIENT_SCOPE': message('The service refused: this API key lacks a permission (scope) that this needs. Ask the service’s administrators to grant it.'),
  'code.UNAUTHORIZED': message('The request was refused as not authorised. Check the profile’s keys, or reload the window, and try again.'),
  'code.NOT_FOUND': message('What was asked for was not found. Check what you entered.'),
  'code.APPLICATION_NOT_FOUND': message('The service does not know this application name, or the service address is wrong. Check both against the service’s administration panel.'),
  'code.LOGOUT_REJECTED': message('The service refused the logout token. Check its claims: “Verify a token” explains what is wrong with a token.'),
  'code.RATE_LIMITED': message('The service is limiting requests. Wait a little and try again.'),
  'code.SERVER_ERROR': message('The service failed while handling the request. If it was an erasure or a logout, check the user before trying again.'),
  'code.NETWORK': message('The service could not be reached, or the connection failed during the request. Check the address and your connection; if it was an erasure or a logout, check the user before trying again.'),
  'code.TIMEOUT': message('The service did not answer in time. If it was an erasure or a logout, check the user before trying again.'),
  'code.TLS': message('Privacy Desk could not connect securely to the service: its certificate was not accepted. Nothing was sent.'),
  'code.INVALID_INPUT': message('Something entered is not valid, so nothing was sent. Correct it and try again.'),
  'code.UNEXPECTED_RESPONSE': message('The service answered in a way Privacy Desk does not expect. Check the service address; if it was an erasure or a logout, check the user before trying again.'),
  'code.TOKEN_INVALID': message('The token is not valid.'),
  'code.CONFIRMATION_MISMATCH': message('What you typed does not match what it confirms, so nothing was done. Type it again exactly.'),
  'code.CANCELLED': message('Stopped, as asked.'),
  'code.PROFILE_NOT_FOUND': message('There is no such profile. Choose one in the Profiles tab.'),
  'code.PROFILE_STORE_CORRUPT': message('The profile list cannot be read. Nothing was changed: repair the file, or start fresh.'),
  'code.KEYCHAIN_UNAVAILABLE': message('The system keychain could not be used. Check that it is available and unlocked.'),
  'code.AUDIT_WRITE_FAILED': message('The audit trail could not be written. Free disk space or fix the data folder’s rights, then try again.'),
  'code.INTERNAL': message('Something went wrong inside Privacy Desk. Try again; if it persists, report it with the steps that led here.'),
  'code.TEAM_STORE_UNAVAILABLE': message('The team’s database could not be reached or did not accept the write, so nothing was sent. Check the connection to it (privacy-desk team status), then try again.'),
  'code.FILE_WRITE_FAILED': message('A file Privacy Desk writes on this computer could not be written (the disk is full, or the folder is not writable). Free some disk space or make the folder writable, then try again.'),
  'code.BUSY': message('Privacy Desk is busy with the same kind of work and took nothing of this request. Try again when the other work has finished.'),
} as const;

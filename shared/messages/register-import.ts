import { message, param } from '../message-text';

/**
 * Importing a DPO's spreadsheet into the request register (core/requests/register-import.ts): what stops the
 * whole file, and what is wrong with one line (the line is then left out; the others can still be imported).
 */
export const REGISTER_IMPORT_MESSAGES = {
  'requestImport.empty': message('The file holds no line: its first line must name the columns (received, action, uid…). Nothing was written.'),
  'requestImport.missingColumn': message('No column holds {{field}}: none of the columns ({{columns}}) has a name it is known by. Say which column holds it. Nothing was written.', { field: param.text, columns: param.text }),
  'requestImport.unknownField': message('{{field}} is not something a request holds: the fields are {{fields}}. Nothing was written.', { field: param.text, fields: param.text }),
  'requestImport.unknownColumn': message('There is no column {{column}} (given for {{field}}): the columns are {{columns}}. Nothing was written.', { column: param.text, field: param.text, columns: param.text }),
  'requestImport.tooManyLines': message('The file holds more than {{limit}} lines: split it and import each part. Nothing was written.', { limit: param.count }),
  'requestImport.nothingToImport': message('No line of the file holds a request that can be imported. Nothing was written.'),
  'requestImport.notConfirmed': message('The import was not confirmed: type {{phrase}} to import these requests. Nothing was written.', { phrase: param.text }),
  // One line's problems: the line is not imported.
  'requestImport.emptyCell': message('{{field}} is empty.', { field: param.text }),
  'requestImport.badDate': message('{{field}} {{value}} is not a date: write it 2026-03-03, 03/03/2026 or 03/03/2026 09:12 (day first, four-digit year), or ISO 8601 with its offset.', { field: param.text, value: param.text }),
  'requestImport.futureDate': message('{{field}} {{value}} is in the future.', { field: param.text, value: param.text }),
  'requestImport.answeredBeforeReceived': message('{{value}} (answered) is before the request was received.', { value: param.text }),
  'requestImport.badAction': message('{{value}} is not an action: anonymize, delete or logout (several separated by commas).', { value: param.text }),
  'requestImport.badChannel': message('{{value}} is not a channel: e-mail, form, letter, phone or other.', { value: param.text }),
  'requestImport.badStatus': message('{{value}} is not a status: received, waiting for identity, in progress, answered or refused.', { value: param.text }),
  'requestImport.duplicateReference': message('Reference {{reference}} is also on line {{line}}: a request is imported once.', { reference: param.text, line: param.count }),
  'requestImport.alreadyImported': message('Reference {{reference}} was already imported, as {{id}}.', { reference: param.text, id: param.text }),
  'requestImport.invalidField': message('{{field}} {{problem}}.', { field: param.text, problem: param.text }),
} as const;

import { message, param } from '../message-text';

/** Team mode (core/team/): the team database's address, reaching it, and what it refused. */
export const TEAM_MESSAGES = {
  'team.url.bad': message('“{{url}}” is not a PostgreSQL address. Write it as postgres://USER@HOST:PORT/DATABASE.', { url: param.text }),
  'team.url.password': message('The address holds a password. Leave it out of the address: it is asked on the terminal (or read from PRIVACY_DESK_DATABASE_PASSWORD) and kept in the OS keychain only.'),
  'team.url.noUser': message('The address names no database user. Write it as postgres://USER@HOST:PORT/DATABASE.'),
  'team.url.noDatabase': message('The address names no database. Write it as postgres://USER@HOST:PORT/DATABASE.'),
  'team.url.tlsRequired': message('{{host}} is not this computer, so the connection must be encrypted (TLS): remove sslmode={{mode}} from the address. Only a database on this computer (localhost) may be reached without TLS.', { host: param.text, mode: param.text }),
  'team.url.sslMode': message('sslmode={{mode}} is not supported. Use sslmode=verify-full (the default away from this computer) or, for a database on this computer only, sslmode=disable.', { mode: param.text }),
  'team.unreachable': message('The team database {{where}} could not be reached ({{why}}). Nothing was sent. Check that the server is running and reachable, then try again.', { where: param.text, why: param.text }),
  'team.refused': message('The team database {{where}} refused the connection ({{why}}). Check the user and its password (privacy-desk team connect), then try again.', { where: param.text, why: param.text }),
  'team.writeFailed': message('The team database {{where}} did not record the entry ({{why}}), so nothing was sent. Check the connection (privacy-desk team status), then try again.', { where: param.text, why: param.text }),
  'team.tooNew': message('The team database {{where}} was upgraded by a newer Privacy Desk (it knows step {{step}}, this version does not). Update Privacy Desk on this computer.', { where: param.text, step: param.text }),
  'team.why.unreachable': message('the team database could not be reached ({{why}})', { why: param.text }),
  'team.why.refused': message('the team database refused the connection ({{why}})', { why: param.text }),
  'team.why.notCommitted': message('the team database did not commit the entry ({{why}})', { why: param.text }),
  'team.fix.reach': message('Check that the team database’s server is running and reachable (privacy-desk team status)'),
  'team.fix.login': message('Check the database user and its password (privacy-desk team connect)'),
  'team.import.broken': message('The local audit trail was not imported: it is not intact ({{problem}}). Nothing was imported. Look into it with privacy-desk audit verify on this computer first.', { problem: param.phrase }),
  'team.import.again': message('This local audit trail (head hash {{hash}}) is already in the team database {{where}}, from entry {{seq}}. Nothing was imported again.', { hash: param.text, where: param.text, seq: param.count }),
  'team.join.broken': message('Entry {{line}} begins {{count}} lines imported from a local trail whose head hash was {{hash}}, but {{problem}}.', { line: param.count, count: param.count, hash: param.text, problem: param.phrase }),
  'team.join.short': message('the team trail ends after {{found}} of them', { found: param.count }),
  'team.join.head': message('those lines hash to another head ({{found}})', { found: param.text }),
  'team.join.local': message('those lines are not an intact local trail ({{problem}})', { problem: param.phrase }),
  'team.join.field': message('entry {{entry}} differs from the local line it carries ({{field}})', { entry: param.count, field: param.text }),
  'team.join.stray': message('Entry {{line}} carries a line of a local trail but follows no import record: it was not imported by privacy-desk team import.', { line: param.count }),
  'auditLine.notImported': message('"imported" or "importedFrom" is not the record of a line moved from a local trail'),
} as const;

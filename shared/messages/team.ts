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
} as const;

import { message, param } from '../message-text';

/** Team mode as a setting of the data folder (core/team/team-settings.ts, team-stores.ts; cli/commands/team.ts; the console's settings). */
export const TEAM_MODE_MESSAGES = {
  'teamMode.noPassword': message(
    'This data folder works on the team database {{where}}, but its password is neither in the OS keychain nor in PRIVACY_DESK_DATABASE_PASSWORD. Nothing was sent. Run privacy-desk team connect again (or set PRIVACY_DESK_DATABASE_PASSWORD).',
    { where: param.text },
  ),
  'teamMode.why.noPassword': message('its password is neither in the OS keychain nor in PRIVACY_DESK_DATABASE_PASSWORD'),
  'teamMode.fix.password': message('Run privacy-desk team connect again (or set PRIVACY_DESK_DATABASE_PASSWORD)'),
  'teamMode.settingDamaged': message('The team setting {{path}} cannot be read ({{problem}}). Nothing was sent. Run privacy-desk team disconnect, then privacy-desk team connect again.', { path: param.text, problem: param.text }),
  'teamMode.notConnected': message('This data folder is not in team mode: its audit trail, batch jobs and request register are kept on this computer. Connect it with privacy-desk team connect --database-url postgres://USER@HOST:PORT/DB.'),
  'teamMode.otherDatabase': message('This data folder already works on the team database {{where}}. Disconnect it first (privacy-desk team disconnect), then connect it to {{other}}.', { where: param.text, other: param.text }),
  'teamMode.passwordMissing': message('No password given for {{where}}. Type it when asked on a terminal, or set PRIVACY_DESK_DATABASE_PASSWORD.', { where: param.text }),
  'teamMode.alreadyImported': message('The local data of this folder was imported into {{where}} on {{at}}. A second import is refused: it would add the same entries twice.', { where: param.text, at: param.text }),
  'teamMode.importUnavailable': message('This version cannot import {{what}} into the team database yet. Nothing was imported.', { what: param.text }),
  'teamMode.notEmptyForImport': message('The team database {{where}} already holds {{count}} audit entries from other desktops; the local trail is joined after them, its head hash recorded in the first imported entry.', { where: param.text, count: param.count }),
  'teamMode.keychainSession': message('The OS keychain is not in use, so the password is kept for this session only: set PRIVACY_DESK_DATABASE_PASSWORD for the commands that follow.'),
  'teamMode.importNotConfirmed': message('The import was not confirmed: type {{phrase}} to move this computer’s trail, jobs and register into the team database. Nothing was imported.', { phrase: param.text }),
} as const;

import { message, param } from '../message-text';

/** The request register in the team database (core/team/pg-register-*.ts). */
export const TEAM_REGISTER_MESSAGES = {
  'teamRegister.eventDamaged': message(
    'Event {{event}} of the team’s request register in {{where}} cannot be read ({{problem}}): it was changed outside Privacy Desk. Check the audit trail (verify), and restore the database from a backup. Nothing was written.',
    { event: param.count, where: param.text, problem: param.text },
  ),
  'teamRegister.notEmpty': message(
    'The team database {{where}} already holds a request register ({{count}} events), so this data folder’s register was not imported: a register is imported only into an empty one, which keeps its request numbers and the events its audit entries vouch for. Nothing was imported.',
    { where: param.text, count: param.count },
  ),
} as const;

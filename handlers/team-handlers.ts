import { PrivacyDeskError, invalidInput } from '../shared/errors';
import { msg } from '../shared/messages';
import { TEAM_IMPORT_PHRASE, type TeamImportPreview, type TeamImportResult, type TeamStatus } from '../shared/team-mode';
import type { AreaHandlers, HandlerContext } from './types';

/**
 * Team mode switched from the console (app-runtime/team-control.ts): connecting or disconnecting changes which
 * stores the Desk works on, so the runtime does it, not a handler. The password goes in and never comes back.
 */
export interface TeamControl {
  status(): Promise<TeamStatus>;
  connect(databaseUrl: string, password: string): Promise<TeamStatus>;
  disconnect(): Promise<{ where: string | null }>;
  /** What `team import` would move, read from the data folder only (core/team/team-import-preview.ts). */
  importPreview(): Promise<TeamImportPreview>;
  /** `team import` (core/team/team-admin.ts importLocalIntoTeam), once confirmed. */
  importLocal(): Promise<TeamImportResult>;
}

export function teamHandlers(ctx: HandlerContext): AreaHandlers<'team.status' | 'team.connect' | 'team.disconnect' | 'team.importPreview' | 'team.import'> {
  // Without a runtime to switch the stores (a handler set built on a bare Desk), team mode is only shown.
  const control = (): TeamControl => {
    if (ctx.team) return ctx.team;
    throw invalidInput(msg('teamMode.notConnected'));
  };
  return {
    'team.status': async () => (ctx.team ? ctx.team.status() : ctx.desk.team ? { mode: 'team', where: ctx.desk.team.where } : { mode: 'local' }),
    'team.connect': async ({ databaseUrl, password }) => control().connect(databaseUrl, password),
    'team.disconnect': async () => control().disconnect(),
    'team.importPreview': async () => control().importPreview(),
    'team.import': async ({ confirmation }) => {
      // The word is checked before anything is read or written: a mismatch imports nothing, and says so.
      if (confirmation.trim() !== TEAM_IMPORT_PHRASE) throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', text: msg('teamMode.importNotConfirmed', { phrase: TEAM_IMPORT_PHRASE }) });
      return control().importLocal();
    },
  };
}

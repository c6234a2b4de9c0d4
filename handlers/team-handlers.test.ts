import { describe, expect, it, vi } from 'vitest';
import { isPrivacyDeskError } from '../shared/errors';
import type { TeamImportResult } from '../shared/team-mode';
import type { Desk } from '../core/desk';
import type { JobRegistry } from './jobs';
import { teamHandlers, type TeamControl } from './team-handlers';

const RESULT: TeamImportResult = { where: 'postgres://dpo@db/desk', auditEntries: 4, firstSeq: 6, localHeadHash: 'a'.repeat(64), jobs: 0, jobsNotImported: [], requests: 0, registerEvents: 0, requestersUnreadable: 0 };

function handlersWith(importLocal: TeamControl['importLocal']) {
  const control: TeamControl = {
    status: async () => ({ mode: 'team' }),
    connect: async () => ({ mode: 'team' }),
    disconnect: async () => ({ where: null }),
    importPreview: async () => ({ where: 'postgres://dpo@db/desk', auditEntries: 4, jobs: 0, damagedJobs: 0, requests: 0, registerEvents: 0 }),
    importLocal,
  };
  return teamHandlers({ desk: {} as Desk, appInfo: () => ({}) as never, jobs: {} as JobRegistry, team: control });
}

describe('team.import from the console', () => {
  it('imports nothing unless IMPORT was typed, and says so in words', async () => {
    const importLocal = vi.fn(async () => RESULT);
    const handlers = handlersWith(importLocal);
    for (const confirmation of ['', 'import', 'IMPORT 4', 'YES']) {
      const refusal = await handlers['team.import']({ confirmation }).catch((error: unknown) => error);
      expect(isPrivacyDeskError(refusal) && [refusal.code, refusal.text?.id]).toEqual(['CONFIRMATION_MISMATCH', 'teamMode.importNotConfirmed']);
    }
    expect(importLocal).not.toHaveBeenCalled();
    expect(await handlers['team.import']({ confirmation: 'IMPORT' })).toEqual(RESULT);
    expect(importLocal).toHaveBeenCalledTimes(1);
  });
});

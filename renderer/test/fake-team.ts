import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { TEAM_IMPORT_PHRASE, type TeamImportPreview, type TeamImportResult, type TeamStatus } from '../../shared/team-mode';
import type { FakeBehaviours } from './fake-client';

/** The password the fake database takes; any other is refused as PostgreSQL refuses it (28P01). */
export const FAKE_TEAM_PASSWORD = 'team-password';

/** What the fake data folder holds before its import: a trail, three jobs (one a process runs: left out) and a register. */
export const FAKE_LOCAL_DATA = { auditEntries: 48, jobs: 3, damagedJobs: 0, requests: 2, registerEvents: 5 } as const;

/**
 * Team mode in the fake bridge: local until team.connect with the right password, the address shown as the core
 * shows it (no password, no query); the password is never kept nor returned.
 */
export function createFakeTeam(initial: TeamStatus = { mode: 'local' }) {
  let status: TeamStatus = initial;
  const behaviours: Pick<FakeBehaviours, 'team.status' | 'team.connect' | 'team.disconnect' | 'team.importPreview' | 'team.import'> = {
    'team.status': async () => status,
    'team.connect': async ({ databaseUrl, password }) => {
      const url = new URL(databaseUrl);
      const where = `postgres://${url.username}@${url.host}${url.pathname}`;
      if (password !== FAKE_TEAM_PASSWORD) throw new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('team.refused', { where, why: '28P01' }) });
      status = {
        mode: 'team',
        where,
        connectedAt: '2026-11-24T22:00:00.000Z',
        connectedBy: { operator: 'dpo', desktop: 'desk-1' },
        password: 'keychain',
        reachable: true,
        role: url.username,
        desktop: 'desk-1',
        schema: { last: '0004-audit-query', steps: 4 },
        counts: { auditEntries: 1204, requests: 17, jobs: 3 },
      };
      return status;
    },
    'team.disconnect': async () => {
      const where = status.where ?? null;
      status = { mode: 'local' };
      return { where };
    },
    'team.importPreview': async () => {
      if (status.mode !== 'team' || !status.where) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('teamMode.notConnected') });
      const preview: TeamImportPreview = { where: status.where, ...FAKE_LOCAL_DATA, ...(status.importedAt ? { importedAt: status.importedAt } : {}) };
      return preview;
    },
    // As the core does: the word checked first, a second import refused; one job a process runs now is left out, with why.
    'team.import': async ({ confirmation }) => {
      if (confirmation.trim() !== TEAM_IMPORT_PHRASE) throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', text: msg('teamMode.importNotConfirmed', { phrase: TEAM_IMPORT_PHRASE }) });
      if (status.mode !== 'team' || !status.where) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('teamMode.notConnected') });
      if (status.importedAt) throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('teamMode.alreadyImported', { where: status.where, at: status.importedAt }) });
      const where = status.where;
      const importedAt = '2026-11-24T22:30:00.000Z';
      const counts = status.counts ?? { auditEntries: 0, requests: 0, jobs: 0 };
      status = { ...status, importedAt, counts: { auditEntries: counts.auditEntries + FAKE_LOCAL_DATA.auditEntries, requests: counts.requests + FAKE_LOCAL_DATA.requests, jobs: counts.jobs + FAKE_LOCAL_DATA.jobs - 1 } };
      const busy = msg('batch.runLockBusy', { job: '20261124-101500-ab12', seconds: 30 });
      const result: TeamImportResult = {
        where,
        auditEntries: FAKE_LOCAL_DATA.auditEntries,
        firstSeq: counts.auditEntries + 1,
        localHeadHash: 'f3a1c9e07b5d2486a1c0e9f7d3b5a2c48e6f1a0b9c7d5e3f2a1b0c9d8e7f6a5b',
        jobs: FAKE_LOCAL_DATA.jobs - 1,
        jobsNotImported: [{ jobId: '20261124-101500-ab12', why: 'run elsewhere', text: busy }],
        requests: FAKE_LOCAL_DATA.requests,
        registerEvents: FAKE_LOCAL_DATA.registerEvents,
        requestersUnreadable: 0,
      };
      return result;
    },
  };
  return { behaviours, where: () => (status.mode === 'team' ? status.where : undefined) };
}

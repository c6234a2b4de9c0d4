import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { TeamStatus } from '../../shared/team-mode';
import type { FakeBehaviours } from './fake-client';

/** The password the fake database takes; any other is refused as PostgreSQL refuses it (28P01). */
export const FAKE_TEAM_PASSWORD = 'team-password';

/**
 * Team mode in the fake bridge: local until team.connect with the right password, the address shown as the core
 * shows it (no password, no query); the password is never kept nor returned.
 */
export function createFakeTeam(initial: TeamStatus = { mode: 'local' }) {
  let status: TeamStatus = initial;
  const behaviours: Pick<FakeBehaviours, 'team.status' | 'team.connect' | 'team.disconnect'> = {
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
  };
  return { behaviours, where: () => (status.mode === 'team' ? status.where : undefined) };
}

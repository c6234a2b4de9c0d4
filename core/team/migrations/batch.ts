import type { TeamMigration } from '../team-migrations';

/** The team's batch tables (filled in by the batch store's author). */
export const BATCH_MIGRATION: TeamMigration = {
  name: '0003-batch',
  async up() {
    // Tables of the batch store come here.
  },
};

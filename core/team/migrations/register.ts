import type { TeamMigration } from '../team-migrations';

/** The team's register tables (filled in by the register store's author). */
export const REGISTER_MIGRATION: TeamMigration = {
  name: '0002-register',
  async up() {
    // Tables of the register store come here.
  },
};

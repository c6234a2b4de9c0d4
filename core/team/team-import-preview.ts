import { join } from 'node:path';
import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { TeamImportPreview } from '../../shared/team-mode';
import { readWhole } from '../audit-file';
import { AUDIT_FILE_NAME } from '../audit-log';
import { listJobs } from '../batch/job-list';
import { openRegisterFile } from '../requests/register-file';
import { readTeamSetting } from './team-settings';

/**
 * What `team import` would move, read from the data folder alone before the operator confirms (the console's import
 * dialog): the database is not reached and nothing is written. The counts are what the import takes: every whole
 * line of the local trail, every job (the damaged ones are counted apart: they are left out) and the register's
 * requests and events. The import itself (importLocalIntoTeam) still refuses what it cannot take, and says why.
 */
export async function previewLocalImport(dataDir: string): Promise<TeamImportPreview> {
  const setting = await readTeamSetting(dataDir);
  if (!setting) throw invalidInput(msg('teamMode.notConnected'));
  const trail = await readWhole(join(dataDir, AUDIT_FILE_NAME));
  // A last line without its newline is torn (set aside by the import, as by every reading): not counted.
  const auditEntries = trail
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.trim()).length;
  const { jobs, damaged } = await listJobs(dataDir);
  const events = await openRegisterFile(dataDir).read();
  const requests = new Set(events.map((event) => requestOf(event.text)).filter((id) => id !== null));
  return {
    where: setting.database.display,
    ...(setting.importedAt ? { importedAt: setting.importedAt } : {}),
    auditEntries,
    jobs: jobs.length,
    damagedJobs: damaged.length,
    requests: requests.size,
    registerEvents: events.length,
  };
}

/** The request an event belongs to (a line that cannot be read is counted by the import's own refusal, not here). */
function requestOf(text: string): string | null {
  try {
    const value = JSON.parse(text) as { request?: unknown };
    return typeof value.request === 'string' ? value.request : null;
  } catch {
    return null;
  }
}

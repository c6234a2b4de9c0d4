import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPrivacyDeskError } from '../../shared/errors';
import { openAuditLog } from '../audit-log';
import { previewLocalImport } from './team-import-preview';
import { writeTeamSetting } from './team-settings';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'team-import-preview-'));
  dirs.push(dir);
  return dir;
};
const connect = (dataDir: string, importedAt?: string) =>
  writeTeamSetting(dataDir, { format: 1, address: 'postgres://dpo@db.example.org:5432/desk', connectedAt: '2026-11-24T22:00:00.000Z', connectedBy: { operator: 'dpo', desktop: 'desk-1' }, ...(importedAt ? { importedAt } : {}) });
const entry = (actId: string) => ({ at: '2026-11-24T10:00:00.000+01:00', actId, action: 'delete', outcome: 'done', uid: `u-${actId}`, profileId: 'p', profileName: 'P', baseUrl: 'http://127.0.0.1:4010', via: 'cli', operator: 'dpo' }) as const;

describe('what team import would move, read from the data folder alone', () => {
  it('counts the trail’s whole lines (not a torn last one), the jobs, and the register’s requests and events', async () => {
    const dataDir = folder();
    await connect(dataDir);
    const log = openAuditLog(dataDir);
    for (const actId of ['a', 'b', 'c']) await log.append(entry(actId));
    // A crash mid-write: the import sets this aside, so it is not counted.
    appendFileSync(join(dataDir, 'audit.jsonl'), '{"at":"2026-11-24T1');
    const event = (n: number, request: string) => JSON.stringify({ v: 1, event: n, at: '2026-11-24T09:00:00.000Z', by: 'dpo', request });
    writeFileSync(join(dataDir, 'requests.jsonl'), `${event(1, 'R-2026-0001')}\n${event(2, 'R-2026-0002')}\n${event(3, 'R-2026-0001')}\n`);
    expect(await previewLocalImport(dataDir)).toEqual({ where: 'postgres://dpo@db.example.org:5432/desk', auditEntries: 3, jobs: 0, damagedJobs: 0, requests: 2, registerEvents: 3 });
  });

  it('says when the folder was imported already, and refuses a folder not in team mode', async () => {
    const imported = folder();
    await connect(imported, '2026-11-24T22:30:00.000Z');
    expect(await previewLocalImport(imported)).toMatchObject({ importedAt: '2026-11-24T22:30:00.000Z', auditEntries: 0, requests: 0 });
    const local = folder();
    const refusal = await previewLocalImport(local).catch((error: unknown) => error);
    expect(isPrivacyDeskError(refusal) && refusal.text?.id).toBe('teamMode.notConnected');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/audit';
import { openAuditLog } from '../../core/audit-log';
import { runCli } from '../../cli/run-cli';

const act = (actId: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at: '2026-11-24T10:00:00.000+01:00',
  actId,
  action: 'anonymize',
  outcome: 'done',
  uid: `user-${actId}`,
  profileId: 'sandbox',
  profileName: 'Sandbox',
  baseUrl: 'http://127.0.0.1:4010',
  via: 'cli',
  operator: 'agent-1',
  ...extra,
});

async function auditList(dataDir: string) {
  let stdout = '';
  const code = await runCli(['audit', 'list'], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
    stdin: Readable.from([]),
    env: { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_CREDENTIAL_STORE: 'session', NO_COLOR: '1' },
  });
  return { code, lines: stdout.split('\n') };
}

describe('privacy-desk audit list: who did it in team mode', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-list-team-'));
    dirs.push(dir);
    return dir;
  };

  it('names the desktop and the database role beside the operator when the entries carry them', async () => {
    const dataDir = folder();
    const log = openAuditLog(dataDir);
    await log.append(act('a1', { desktop: 'desk-2', dbRole: 'privacy_agent' }));
    // An entry from before team mode (imported from a local trail): its cells stay empty.
    await log.append(act('a2'));
    const { code, lines } = await auditList(dataDir);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/OPERATOR +DESKTOP +DB ROLE$/);
    expect(lines.find((line) => line.includes('user-a1'))).toMatch(/agent-1 +desk-2 +privacy_agent$/);
    expect(lines.find((line) => line.includes('user-a2'))).toMatch(/agent-1$/);
  });

  it('shows no team columns on a trail that never was in team mode', async () => {
    const dataDir = folder();
    await openAuditLog(dataDir).append(act('b1'));
    const { code, lines } = await auditList(dataDir);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/VIA +OPERATOR$/);
    expect(lines.join('\n')).not.toContain('DESKTOP');
  });
});

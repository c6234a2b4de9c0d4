import { describe, expect, it } from 'vitest';
import { conformanceCsv, conformanceJunit, type ConformanceReport } from './logout-conformance-report';

function report(uid: string): ConformanceReport {
  return {
    uid,
    profile: 'Sandbox',
    baseUrl: 'http://127.0.0.1:4600',
    startedAt: '2026-11-24T10:00:00.000Z',
    finishedAt: '2026-11-24T10:00:01.000Z',
    sessionsChecked: true,
    overall: 'conformant',
    counts: { conformant: 1, 'not-conformant': 0, inconclusive: 0 },
    cases: [{ id: 'valid', rule: 'A valid token is accepted.', source: 'service-docs', reference: 'docs', expected: 'Accepted.', actual: 'accepted (200)', verdict: 'conformant', sends: [] }],
  };
}

describe('the conformance run as CSV and JUnit files', () => {
  it('names on every row the uid and service the run tested, in columns after the first seven', () => {
    const [header, row] = conformanceCsv(report('alice@example.org')).split('\r\n');
    expect(header).toBe('"id","source","reference","rule","expected","actual","verdict","uid","service","started_at"');
    expect(row).toBe('"valid","service-docs","docs","A valid token is accepted.","Accepted.","accepted (200)","conformant","alice@example.org","http://127.0.0.1:4600","2026-11-24T10:00:00.000Z"');
  });

  it('keeps a spreadsheet from running a uid as a formula, an apostrophe-led one included', () => {
    expect(conformanceCsv(report('=HYPERLINK("http://x")')).split('\r\n')[1]).toContain(',"\'=HYPERLINK(""http://x"")",');
    expect(conformanceCsv(report("'=1+1")).split('\r\n')[1]).toContain(",\"''=1+1\",");
    expect(conformanceCsv(report('-1')).split('\r\n')[1]).toContain(',"\'-1",');
  });

  it('gives JUnit a timestamp its schema accepts: to the second, no zone', () => {
    const xml = conformanceJunit({ ...report('alice'), startedAt: '2026-11-24T10:00:00.123+01:00' });
    expect(xml).toContain('timestamp="2026-11-24T10:00:00"');
  });
});

import type { MessageText } from './message-text';
import { CONFORMANCE_SOURCES, type ConformanceRun, type ConformanceSource } from './logout-conformance';

/**
 * A conformance run as files: JSON (the CLI's --json and its report), JUnit XML (one test suite per source, so CI
 * can gate on the service's docs alone) and CSV. The rule, expected and actual texts are worded by the caller: the
 * CLI in English, the window in its language.
 */
export type WordFn = (text: MessageText) => string;

export type ConformanceReportFormat = 'json' | 'junit' | 'csv';

export interface ConformanceReportCase {
  id: string;
  rule: string;
  source: ConformanceSource;
  reference: string;
  expected: string;
  actual: string;
  verdict: string;
  sends: ConformanceRun['cases'][number]['sends'];
}

export interface ConformanceReport {
  uid: string;
  profile: string;
  baseUrl: string;
  startedAt: string;
  finishedAt: string;
  sessionsChecked: boolean;
  overall: ConformanceRun['overall'];
  counts: ConformanceRun['counts'];
  cases: ConformanceReportCase[];
}

export function conformanceReport(run: ConformanceRun, word: WordFn): ConformanceReport {
  return {
    uid: run.uid,
    profile: run.profileName,
    baseUrl: run.baseUrl,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    sessionsChecked: run.sessionsChecked,
    overall: run.overall,
    counts: run.counts,
    cases: run.cases.map((one) => ({
      id: one.id,
      rule: word(one.rule),
      source: one.source,
      reference: one.reference,
      expected: word(one.expected),
      actual: word(one.actual),
      verdict: one.verdict,
      sends: one.sends,
    })),
  };
}

export function conformanceJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Characters XML 1.0 cannot hold at all (control characters other than tab and line breaks, lone surrogates) are dropped. */
function xmlChar(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x9 || code === 0xa || code === 0xd) return true;
  return (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}

function xmlText(text: string): string {
  return [...text]
    .filter(xmlChar)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const SUITE_NAMES: Record<ConformanceSource, string> = {
  'service-docs': 'logout conformance: the service’s docs',
  'oidc-spec': 'logout conformance: OpenID Connect specification',
  'good-practice': 'logout conformance: good practice',
};

/** JUnit's timestamp is a date and time to the second with no zone (its XML schema's pattern): the run's own clock reading, cut there. */
function junitTimestamp(at: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.exec(at)?.[0] ?? at;
}

/** JUnit XML: a not-conformant case is a failure (its type the source), an inconclusive one skipped with why. */
export function conformanceJunit(report: ConformanceReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = report.cases.filter((one) => one.verdict === 'not-conformant').length;
  const skipped = report.cases.filter((one) => one.verdict === 'inconclusive').length;
  lines.push(`<testsuites name="logout conformance" tests="${report.cases.length}" failures="${failures}" skipped="${skipped}" errors="0">`);
  for (const source of CONFORMANCE_SOURCES) {
    const cases = report.cases.filter((one) => one.source === source);
    if (cases.length === 0) continue;
    const suiteFailures = cases.filter((one) => one.verdict === 'not-conformant').length;
    const suiteSkipped = cases.filter((one) => one.verdict === 'inconclusive').length;
    lines.push(
      `  <testsuite name="${xmlText(SUITE_NAMES[source])}" tests="${cases.length}" failures="${suiteFailures}" skipped="${suiteSkipped}" errors="0" timestamp="${xmlText(junitTimestamp(report.startedAt))}">`,
    );
    lines.push('    <properties>');
    lines.push(`      <property name="uid" value="${xmlText(report.uid)}"/>`);
    lines.push(`      <property name="profile" value="${xmlText(report.profile)}"/>`);
    lines.push(`      <property name="baseUrl" value="${xmlText(report.baseUrl)}"/>`);
    lines.push(`      <property name="sessionsChecked" value="${report.sessionsChecked}"/>`);
    lines.push('    </properties>');
    for (const one of cases) {
      const name = `${one.id}: ${one.rule}`;
      const detail = `Expected: ${one.expected}\nActual: ${one.actual}\nSource: ${one.reference}`;
      const open = `    <testcase classname="logout-conformance.${source}" name="${xmlText(name)}"`;
      if (one.verdict === 'not-conformant') {
        lines.push(`${open}>`, `      <failure type="${source}" message="${xmlText(one.actual)}">${xmlText(detail)}</failure>`, '    </testcase>');
      } else if (one.verdict === 'inconclusive') {
        lines.push(`${open}>`, `      <skipped message="${xmlText(`inconclusive: ${one.actual}`)}"/>`, '    </testcase>');
      } else {
        lines.push(`${open}/>`);
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * A cell a spreadsheet would read as a formula gets an apostrophe in front, as in every export of Privacy Desk (one
 * that starts with an apostrophe too, so the rule can be undone); every cell is quoted.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r']/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function conformanceCsv(report: ConformanceReport): string {
  // The run's uid and service on every row (columns only ever added at the end): a CSV passed on still says what it tested.
  const header = ['id', 'source', 'reference', 'rule', 'expected', 'actual', 'verdict', 'uid', 'service', 'started_at'];
  const rows = report.cases.map((one) => [one.id, one.source, one.reference, one.rule, one.expected, one.actual, one.verdict, report.uid, report.baseUrl, report.startedAt]);
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export function conformanceFile(report: ConformanceReport, format: ConformanceReportFormat): string {
  if (format === 'junit') return conformanceJunit(report);
  if (format === 'csv') return conformanceCsv(report);
  return conformanceJson(report);
}

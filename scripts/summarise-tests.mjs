// Adds up the Vitest and Playwright JSON reports into one closing line,
// `Tests: N passed, N failed, N skipped`, and fails when no test ran at all.
import { existsSync, readFileSync } from 'node:fs';

const [vitestReport, playwrightReport] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

if (vitestReport && existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it once.
  if (report.success === false && !report.numFailedTests) failed += Math.max(1, report.numFailedTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // Tests that never finished (a worker that ended unexpectedly takes its file's tests with it) are failures too.
  const ended = (report.numPassedTests ?? 0) + (report.numFailedTests ?? 0) + (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const unfinished = (report.numTotalTests ?? 0) - ended;
  if (unfinished > 0) {
    console.error(`${unfinished} Vitest test(s) never finished: a test worker ended unexpectedly (see "Unhandled Errors" above).`);
    failed += unfinished;
  }
} else {
  console.error('No Vitest report was written: the unit and integration suites did not run.');
  failed += 1;
}

if (playwrightReport && existsSync(playwrightReport)) {
  const { stats } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  failed += stats?.unexpected ?? 0;
  skipped += stats?.skipped ?? 0;
} else {
  console.error('No Playwright report was written: the end-to-end suite did not run.');
  failed += 1;
}

console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

// Every test runner of the project (vitest's unit and integration projects, Playwright, the cluster
// test) writes its counts into ODONTIA_TEST_COUNTS_DIR when that variable is set; this script adds
// them up and prints one plain line, `N passed, N failed` (CI ends its log with it).
//
//   node scripts/test-counts.mjs <dir>            prints the line (exit 0)
//   node scripts/test-counts.mjs <dir> --check    also exits 1 when something failed or nothing ran
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Counts of one report file, by its kind (the file name's first word). */
export function countsOf(name, report) {
  if (name.startsWith('vitest-')) {
    // vitest's JSON reporter (the Jest shape): todo and skipped are neither passed nor failed.
    return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + failedSuites(report) };
  }
  if (name.startsWith('playwright-')) {
    // A test that passed on CI's retry is `flaky`: it passed, and the retry shows in the list above.
    const stats = report.stats ?? {};
    return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0 };
  }
  return { passed: report.passed ?? 0, failed: report.failed ?? 0 };
}

/**
 * A test file that failed outside its tests (it did not load, or its set-up threw, leaving its
 * tests skipped) has no failed test, only a failed suite: it must count as a failure.
 */
function failedSuites(report) {
  return (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((assertion) => assertion.status === 'failed'),
  ).length;
}

export function sumCounts(dir) {
  const total = { passed: 0, failed: 0, files: 0 };
  if (!existsSync(dir)) return total;
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const counts = countsOf(name, JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.files += 1;
  }
  return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? process.env.ODONTIA_TEST_COUNTS_DIR;
  if (!dir) {
    console.error('usage: node scripts/test-counts.mjs <dir> [--check]');
    process.exit(2);
  }
  const total = sumCounts(dir);
  console.log(`${total.passed} passed, ${total.failed} failed`);
  if (process.argv.includes('--check') && (total.failed > 0 || total.passed === 0)) process.exit(1);
}

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sumCounts } from './test-counts.mjs';

describe('test counts', () => {
  it('adds vitest, Playwright and cluster counts; a file that failed to load or set up is a failure', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'counts-'));
    writeFileSync(
      path.join(dir, 'vitest-1.json'),
      JSON.stringify({
        numPassedTests: 10,
        numFailedTests: 1,
        numPendingTests: 3,
        testResults: [
          { status: 'failed', assertionResults: [] },
          // Its set-up threw: its tests are skipped, the file failed.
          { status: 'failed', assertionResults: [{ status: 'skipped' }, { status: 'skipped' }] },
          // A failed test: counted once, by numFailedTests.
          { status: 'failed', assertionResults: [{ status: 'failed' }, { status: 'passed' }] },
          { status: 'passed', assertionResults: [{}] },
        ],
      }),
    );
    writeFileSync(
      path.join(dir, 'playwright-2.json'),
      JSON.stringify({ stats: { expected: 5, flaky: 1, unexpected: 2 } }),
    );
    writeFileSync(path.join(dir, 'cluster-3.json'), JSON.stringify({ passed: 7, failed: 0 }));
    expect(sumCounts(dir)).toEqual({ passed: 23, failed: 5, files: 3 });
  });

  it('counts nothing in an empty or missing folder', () => {
    expect(sumCounts(path.join(os.tmpdir(), 'no-such-counts-folder'))).toEqual({ passed: 0, failed: 0, files: 0 });
  });
});

import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * With ODONTIA_TEST_COUNTS_DIR set (CI), each run also writes its counts as JSON there, so
 * `scripts/test-counts.mjs` can add up every runner's tests into one line.
 */
const countsDir = process.env.ODONTIA_TEST_COUNTS_DIR;
const reporters = countsDir
  ? ['default', ['json', { outputFile: path.join(countsDir, `vitest-${process.pid}-${Date.now()}.json`) }] as const]
  : ['default'];

/**
 * Two projects: `unit` (no I/O, `*.test.ts`) and `integration` (`*.int.test.ts`, each file
 * boots the API on a fresh database: a new database on the server when DATABASE_URL is set,
 * an in-memory PGlite otherwise).
 */
export default defineConfig({
  test: {
    reporters,
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/api/src/**/*.int.test.ts', 'apps/api/test/**/*.int.test.ts'],
          globalSetup: ['apps/api/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite runs in-process and is CPU-bound; two files at a time fit a 2-core machine.
          maxWorkers: 2,
          // Each file builds its own app and database, so the files of a worker may share its loaded
          // modules: importing the app again for each of the 120-odd files took a quarter of the run.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

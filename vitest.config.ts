import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (no I/O, `*.test.ts`) and `integration` (`*.int.test.ts`, each file
 * boots the API on a fresh database: a new database on the server when DATABASE_URL is set,
 * an in-memory PGlite otherwise).
 */
export default defineConfig({
  test: {
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
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

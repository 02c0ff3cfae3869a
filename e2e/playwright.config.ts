import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { basePathServer, fakeArca, rootServer } from './support/servers';
import { snapshotWebBuild } from './support/web-build';

const repoRoot = path.resolve(import.meta.dirname, '..');
const ci = Boolean(process.env.CI);

/**
 * Per run: a temp folder with one fresh PGlite folder per server and a private copy of the web
 * build (see support/web-build.ts). The config is evaluated again in every worker process;
 * workers inherit the runner's environment, so only the runner creates them and, on exit (after
 * the servers have stopped), removes them.
 */
function runDir(): string {
  const existing = process.env.ODONTIA_E2E_RUN_DIR;
  if (existing) return existing;
  const created = mkdtempSync(path.join(os.tmpdir(), 'odontia-e2e-'));
  process.env.ODONTIA_E2E_RUN_DIR = created;
  process.on('exit', () => rmSync(created, { recursive: true, force: true }));
  for (const name of ['root', 'clinica']) mkdirSync(path.join(created, 'data', name), { recursive: true });
  snapshotWebBuild(repoRoot, path.join(created, 'web'));
  createRootDatabase(path.basename(created));
  return created;
}

/**
 * With DATABASE_URL set (CI's `npm test`), the root server, which most specs use, runs on a fresh
 * database of that PostgreSQL: PGlite is one WASM thread that the two browsers' requests queued on,
 * and half the suite's time went to it. The sub-path server stays on PGlite, as `npm start` runs
 * (base-path.spec checks it answers `database: 'pglite'`). Without DATABASE_URL both are on PGlite.
 */
function createRootDatabase(runName: string): void {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || process.env.ODONTIA_E2E_DATABASE_URL) return;
  const name = `odontia_e2e_${runName.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
  const psql = (sql: string) =>
    spawnSync('psql', [serverUrl, '-v', 'ON_ERROR_STOP=1', '-qc', sql], { stdio: 'inherit' });
  if (psql(`create database ${name}`).status !== 0) throw new Error(`could not create the e2e database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  process.env.ODONTIA_E2E_DATABASE_URL = url.toString();
  process.on('exit', () => psql(`drop database if exists ${name} with (force)`));
}

function server(port: number, basePath: string, dataName: string, extraEnv: Record<string, string> = {}) {
  return {
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `http://127.0.0.1:${port}${basePath}api/health`,
    reuseExistingServer: false,
    // Each server seeds the demo clinic on an empty PGlite: ~30 s alone, minutes on a busy machine.
    timeout: 240_000,
    // SIGTERM lets the server finish requests and close PGlite cleanly.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_PATH: basePath,
      DATA_DIR: path.join(runDir(), 'data', dataName),
      WEB_DIST_DIR: path.join(runDir(), 'web'),
      LOG_LEVEL: 'warn',
      // Small upload limits, so the files spec can show a file too large without sending megabytes.
      UPLOAD_MAX_MB: '2',
      UPLOAD_TOTAL_MAX_MB: '10',
      // The e2e servers stand for an app behind a proxy: tests pick their client address.
      TRUST_PROXY: 'true',
      // The job queue looks often, so a reminder reaches the outbox within a test (issue 16).
      JOBS_POLL_MS: '300',
      // Webhooks (issue 42): the settings spec subscribes a receiver it starts on 127.0.0.1.
      WEBHOOKS_ALLOW_PRIVATE_HTTP: 'true',
      // The demo's fake SMS and WhatsApp provider on a known port, where a spec posts a patient's
      // reply (issue 38; e2e/support/fake-messaging.ts).
      DEMO_MESSAGING_PORT: String(port + 100),
      // Reports (issue 19): a report of more than 25 rows is exported as a job, 5 rows a run, so the
      // reports spec sees the progress bar on the demo clinic's data.
      REPORT_DIRECT_EXPORT_MAX_ROWS: '25',
      REPORT_EXPORT_CHUNK_ROWS: '5',
      // A hosted installation's plans (issue 19): the demo clinic is on `basic`, its account shows
      // price, limits and due date, and renewing works.
      PLANS: JSON.stringify([
        {
          id: 'basic',
          name: 'Básico',
          price: '45000',
          currency: 'argentine_peso',
          periodMonths: 1,
          limits: { professionals: 100, storageMb: 5120 },
        },
        { id: 'pro', name: 'Profesional', price: '450000', currency: 'argentine_peso', periodMonths: 12 },
      ]),
      // Where renewals are transferred to (issue 35): shown with the pending order.
      PAYMENT_TRANSFER_DETAILS: 'Titular: Odontia SRL\\nCBU: 0170099220000067797370\\nAlias: ODONTIA.PAGOS',
      // Empty means unset for the server: always the embedded PGlite, whatever the shell exports.
      DATABASE_URL: '',
      ...extraEnv,
    },
  };
}

/** The root server's database settings: PostgreSQL seeded with the demo clinic as PGlite is, or PGlite. */
function rootDatabase(): Record<string, string> {
  runDir();
  const url = process.env.ODONTIA_E2E_DATABASE_URL;
  return url ? { DATABASE_URL: url, SEED_DEMO: 'true', DEMO_MESSAGING: 'true' } : {};
}

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: ci,
  workers: 2,
  retries: ci ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_500 },
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    // CI adds up every runner's counts (scripts/test-counts.mjs).
    ...(process.env.ODONTIA_TEST_COUNTS_DIR
      ? [
          [
            'json',
            { outputFile: path.join(process.env.ODONTIA_TEST_COUNTS_DIR, `playwright-${process.pid}.json`) },
          ] as const,
        ]
      : []),
  ],
  webServer: [
    // ARCA's homologation, played by the local service that speaks WSAA and WSFEv1 (issue 39).
    {
      command: `node --import tsx apps/api/src/dev/fake-arca.ts --port ${fakeArca.port}`,
      cwd: repoRoot,
      url: fakeArca.url('_fake/state'),
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    server(rootServer.port, rootServer.basePath, 'root', {
      ...rootDatabase(),
      ARCA_HOMOLOGATION_URL: fakeArca.url(),
      EINVOICE_TIMEOUT_MS: '5000',
    }),
    server(basePathServer.port, basePathServer.basePath, 'clinica'),
  ],
  use: {
    baseURL: rootServer.origin,
    // The app is Spanish-first: unless a test says otherwise, a Spanish browser in Madrid.
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    colorScheme: 'light',
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
    // Traces cost about a third of the run time: only when CI retries a failed test (locally: --trace=on).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});

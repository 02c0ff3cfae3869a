import cluster from 'node:cluster';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './app.ts';
import { type Database, openDatabase } from './db/client.ts';
import type { FakeMessagingProvider } from './dev/fake-messaging-provider.ts';
import { type Env, EnvError, loadEnv } from './env.ts';
import { type BackupSchedule, startBackupSchedule } from './features/backup/schedule.ts';
import { claimDataDirLock, type DataDirLock, DataDirLockedError } from './lib/data-dir-lock.ts';
import { seedDemoAtStartup } from './seed/demo.ts';
import { startDemoMessaging } from './seed/demo-messaging.ts';

/**
 * Entry point: env → database (migrated) → app → listen. SIGTERM/SIGINT make readiness answer 503
 * (for SHUTDOWN_DRAIN_MS, so a load balancer sees the instance leave), stop accepting, let
 * requests and jobs in flight finish, then close the database — PGlite must be closed cleanly or
 * its files may be left inconsistent. A second signal, or 10 s without finishing, forces exit.
 *
 * WEB_CONCURRENCY=N (issue 20): this process becomes the primary of N server processes on the one
 * port (node:cluster hands them the connections). It migrates and seeds once, then forks them;
 * one that dies is replaced; SIGTERM is passed to each and the primary exits when they have.
 * Nothing is shared in memory between them: sessions, throttles, jobs and idempotency keys live
 * in PostgreSQL (docs/deployment.md).
 */

const shutdownTimeoutMs = 10_000;
// The first scheduled backup waits this long after start: a server that only starts and stops makes none.
const firstBackupCheckMs = 5 * 60_000;

function readEnv(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * PGlite is one process: a second server, a backup or a restore on the same files would corrupt
 * them. The embedded database's server holds DATA_DIR's lock while it runs.
 */
async function lockDataDir(env: Env): Promise<DataDirLock | undefined> {
  if (env.DATABASE_URL) return undefined;
  try {
    await mkdir(env.DATA_DIR, { recursive: true });
    return await claimDataDirLock(env.DATA_DIR, 'server');
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(`Cannot start: ${error.message}. The embedded database serves one process; stop that one first.`);
    process.exit(1);
  }
}

async function open(env: Env, lock?: DataDirLock): Promise<Database> {
  try {
    return await openDatabase({
      databaseUrl: env.DATABASE_URL,
      replicaUrl: env.DATABASE_REPLICA_URL,
      pgliteDir: path.join(env.DATA_DIR, 'db'),
    });
  } catch (error) {
    console.error(`Could not open the database: ${(error as Error).message}`);
    await lock?.release();
    process.exit(1);
  }
}

/** One server process: the app on the port until a signal. */
async function serve(env: Env): Promise<void> {
  const startedAt = performance.now();
  const lock = await lockDataDir(env);
  const db = await open(env, lock);
  const app = await buildApp({ env, db });
  let backups: BackupSchedule | undefined;
  let demoMessages: FakeMessagingProvider | null = null;
  // Under a primary the demo clinic was seeded before the fork: once, not once per process.
  if (!cluster.isWorker) {
    try {
      await seedDemoAtStartup(db, env.SEED_DEMO, app.log, env.DATA_DIR, env.SECRETS_KEY);
      // The demo's SMS and WhatsApp go to a local fake provider (issue 38), started with the server.
      if (env.DEMO_MESSAGING ?? env.SEED_DEMO ?? db.kind === 'pglite') {
        demoMessages = await startDemoMessaging(db, {
          port: env.DEMO_MESSAGING_PORT,
          publicUrl: env.PUBLIC_URL,
          secretsKey: env.SECRETS_KEY,
          dataDir: env.DATA_DIR,
        });
        if (demoMessages) app.log.info({ url: demoMessages.url }, 'demo SMS and WhatsApp provider (local fake) ready');
      }
    } catch (error) {
      app.log.error({ err: error }, 'could not create the demo clinic');
    }
  }

  let stopping = false;
  async function stop(signal: string): Promise<void> {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.lifecycle.draining = true;
    app.log.info(
      { signal, drainMs: env.SHUTDOWN_DRAIN_MS },
      'shutting down: readiness off, finishing requests in flight',
    );
    const forced = setTimeout(() => {
      app.log.error('shutdown took too long: exiting');
      process.exit(1);
    }, env.SHUTDOWN_DRAIN_MS + shutdownTimeoutMs);
    forced.unref();
    try {
      if (env.SHUTDOWN_DRAIN_MS > 0) await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DRAIN_MS));
      await app.close();
      await demoMessages?.stop();
      await backups?.stop();
      await db.close();
      await lock?.release();
      app.log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  }

  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: env.PORT, host: env.HOST });
    app.log.info(
      {
        database: db.kind === 'pglite' ? `PGlite in ${path.join(env.DATA_DIR, 'db')}` : 'PostgreSQL',
        basePath: env.BASE_PATH,
        startupMs: Math.round(performance.now() - startedAt),
        ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}),
      },
      'Odontia is ready',
    );
  } catch (error) {
    app.log.error({ err: error }, 'could not start listening');
    await db.close();
    await lock?.release();
    process.exit(1);
  }

  // The scheduled backup (on by default for the embedded database): once per installation, so not
  // in the processes of WEB_CONCURRENCY (schedule `npm run backup` there instead).
  if ((env.BACKUP_ENABLED ?? db.kind === 'pglite') && !cluster.isWorker) {
    backups = startBackupSchedule({
      db,
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      folder: env.BACKUP_DIR,
      keep: env.BACKUP_KEEP,
      intervalMs: env.BACKUP_INTERVAL_HOURS * 3_600_000,
      firstCheckMs: firstBackupCheckMs,
      log: app.log,
    });
  }
}

/** The primary of WEB_CONCURRENCY server processes. */
async function supervise(env: Env): Promise<void> {
  // Migrate and seed once, before any server process opens the database.
  const db = await open(env);
  try {
    await seedDemoAtStartup(
      db,
      env.SEED_DEMO,
      { info: (fields, message) => console.log(`${message} ${JSON.stringify(fields)}`) },
      env.DATA_DIR,
      env.SECRETS_KEY,
    );
  } catch (error) {
    console.error('could not create the demo clinic', error);
  } finally {
    await db.close();
  }

  let stopping = false;
  const fork = () => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`server process ${worker.process.pid} ended (${signal ?? code}): starting another`);
    setTimeout(fork, 500);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} server processes`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let index = 0; index < env.WEB_CONCURRENCY; index++) fork();
  console.log(`Odontia: ${env.WEB_CONCURRENCY} server processes on port ${env.PORT}`);
}

const env = readEnv();
if (env.WEB_CONCURRENCY > 1 && cluster.isPrimary) await supervise(env);
else await serve(env);

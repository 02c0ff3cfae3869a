import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './app.ts';
import { type Database, openDatabase } from './db/client.ts';
import { seedDemoAtStartup } from './db/seed/demo.ts';
import { type Env, EnvError, loadEnv } from './env.ts';
import { type BackupSchedule, startBackupSchedule } from './features/backup/schedule.ts';
import { claimDataDirLock, type DataDirLock, DataDirLockedError } from './lib/data-dir-lock.ts';

/**
 * Entry point: env → database (migrated) → app → listen. SIGTERM/SIGINT stop accepting,
 * let requests in flight finish, then close the database — PGlite must be closed cleanly or
 * its files may be left inconsistent. A second signal, or 10 s without finishing, forces exit.
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

const env = readEnv();
const startedAt = performance.now();

// PGlite is one process: a second server, a backup or a restore on the same files would corrupt them.
let dataDirLock: DataDirLock | undefined;
if (!env.DATABASE_URL) {
  try {
    await mkdir(env.DATA_DIR, { recursive: true });
    dataDirLock = await claimDataDirLock(env.DATA_DIR, 'server');
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(`Cannot start: ${error.message}. The embedded database serves one process; stop that one first.`);
    process.exit(1);
  }
}

let db: Database;
try {
  db = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: path.join(env.DATA_DIR, 'db') });
} catch (error) {
  console.error(`Could not open the database: ${(error as Error).message}`);
  await dataDirLock?.release();
  process.exit(1);
}

const app = await buildApp({ env, db });
try {
  await seedDemoAtStartup(db, env.SEED_DEMO, app.log);
} catch (error) {
  app.log.error({ err: error }, 'could not create the demo clinic');
}

let backups: BackupSchedule | undefined;

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) {
    app.log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  stopping = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  const forced = setTimeout(() => {
    app.log.error('shutdown took too long: exiting');
    process.exit(1);
  }, shutdownTimeoutMs);
  forced.unref();
  try {
    await app.close();
    await backups?.stop();
    await db.close();
    await dataDirLock?.release();
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
    },
    'Odontia is ready',
  );
} catch (error) {
  app.log.error({ err: error }, 'could not start listening');
  await db.close();
  await dataDirLock?.release();
  process.exit(1);
}

if (env.BACKUP_ENABLED ?? db.kind === 'pglite') {
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

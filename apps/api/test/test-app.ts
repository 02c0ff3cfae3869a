import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { type Env, loadEnv } from '../src/env.ts';
import type { Mailer } from '../src/lib/mail.ts';
import { type Backend, createTestDatabase } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  env: Env;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  backend?: Backend;
  /** Replaces the mail transport (see test/mail.ts). */
  mailer?: Mailer;
  /** Runs once the database is ready, just before the app is built (files the start-up must find). */
  beforeBuild?: () => Promise<void>;
  /** Adds test-only routes before the app is ready. */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * PostgreSQL only: the database is also its own "read replica" (DATABASE_REPLICA_URL = the
   * same), so replica routes run in read-only transactions: a write there fails the test.
   */
  selfReplica?: boolean;
}

/** The real application on a fresh database, for `app.inject`. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-app-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    // The job queue's worker polls only where a test asks for it (reminders' tests drive it with runDue).
    JOBS_ENABLED: 'false',
    ...options.env,
  });
  const db = await createTestDatabase(options.backend, { selfReplica: options.selfReplica ?? false });
  await options.beforeBuild?.();
  const app = await buildApp({ env, db, ...(options.mailer ? { mailer: options.mailer } : {}) });
  await options.configure?.(app);
  await app.ready();
  return {
    app,
    db,
    env,
    async close() {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One app per test, closed after it whether it passed or not: the returned function creates the
 * test's app (with its options) and answers it.
 */
export function useAppPerTest(): (options?: TestAppOptions) => Promise<TestApp> {
  let current: TestApp | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options) => {
    current = await createTestApp(options);
    return current;
  };
}

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/database-unavailable.ts';
import * as schema from './schema/index.ts';
import {
  type AppDatabase,
  createTenancy,
  drizzleTransactions,
  type StatementRunner,
  type Tenancy,
  type TenantTx,
  type Transaction,
  type TransactionRunner,
} from './tenancy.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** An open database: the Drizzle handle, the tenancy entry points and a clean close. */
export interface Database extends Tenancy {
  readonly kind: DatabaseKind;
  readonly orm: AppDatabase;
  /** PGlite only: the whole data dir as a tarball (test snapshots, backups). */
  dump?: () => Promise<Blob>;
  /** One round trip, for the health check. */
  ping(): Promise<void>;
  /**
   * A read that tolerates a second of lag (issue 20): with a replica (DATABASE_REPLICA_URL), one
   * read-only transaction there in the clinic's context — row-level security holds, the replica
   * has the same roles — once it has replayed `minLsn` (the client's last write, so a client reads
   * its own writes); else, or when the replica is behind or unreachable, on the primary.
   */
  withTenantRead<T>(accountId: string, minLsn: string | undefined, fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** Whether reads that tolerate lag go to a replica (DATABASE_REPLICA_URL); else `withTenantRead` is `withTenant`. */
  readonly hasReplica: boolean;
  /** With a replica: the primary's WAL position now, which a replica must have replayed to show what committed. */
  currentLsn?: () => Promise<string>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

/** Extensions every database loads; PGlite needs their WASM modules at construction. */
export const pgliteExtensions = { pg_trgm, unaccent, btree_gist };

// Any constant: serialises migrations of several API processes starting at once on one server.
export const migrationLockKey = 7_240_771_001;

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; unset → embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite folder; unset → in memory (tests). */
  pgliteDir?: string | undefined;
  /** A migrated PGlite data dir dump to start from (tests: skips initdb, ~3× faster). */
  pgliteSnapshot?: Blob | undefined;
  /** Pool size on PostgreSQL. */
  poolMax?: number;
  /** A streaming replica of `databaseUrl` for reads that tolerate lag (DATABASE_REPLICA_URL). */
  replicaUrl?: string | undefined;
}

/** Opens the database and applies the committed migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolMax ?? 10, options.replicaUrl)
    : openPglite(options.pgliteDir, options.pgliteSnapshot);
}

async function openPglite(dir: string | undefined, snapshot: Blob | undefined): Promise<Database> {
  if (dir) await mkdir(path.dirname(dir), { recursive: true });
  const client = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    ...(snapshot ? { loadDataDir: snapshot } : {}),
    extensions: pgliteExtensions,
  });
  try {
    const orm = drizzlePglite(client, { schema });
    await migratePglite(orm, { migrationsFolder });
    return assemble(
      'pglite',
      orm,
      drizzleTransactions(orm),
      () => client.close(),
      () => client.dumpDataDir('none'),
    );
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function openPostgres(connectionString: string, max: number, replicaUrl?: string): Promise<Database> {
  await migratePostgres(connectionString);
  const pool = newPool(connectionString, max);
  // Both drivers answer `{ rows }`; AppDatabase states that once for the repositories.
  const orm = drizzleNodePg(pool, { schema }) as unknown as AppDatabase;
  if (!replicaUrl) {
    return assemble(
      'postgres',
      orm,
      pooledTransactions(pool, orm),
      () => pool.end(),
      undefined,
      pooledStatements(pool, orm),
    );
  }

  const replicaPool = newPool(replicaUrl, max);
  const replicaOrm = drizzleNodePg(replicaPool, { schema }) as unknown as AppDatabase;
  const replica = createTenancy(pooledTransactions(replicaPool, replicaOrm, 'read only'));
  const primary = assemble(
    'postgres',
    orm,
    pooledTransactions(pool, orm),
    async () => {
      await Promise.all([pool.end(), replicaPool.end()]);
    },
    undefined,
    pooledStatements(pool, orm),
  );
  return {
    ...primary,
    hasReplica: true,
    async withTenantRead(accountId, minLsn, fn) {
      try {
        return await replica.withTenant(accountId, async (tx) => {
          if (minLsn) {
            // null on a server that is not replaying (a primary named as replica): nothing to wait for.
            const { rows } = await tx.execute<{ caught_up: boolean }>(
              sql`select coalesce(pg_last_wal_replay_lsn() >= ${minLsn}::pg_lsn, true) as caught_up`,
            );
            if (!rows[0]?.caught_up) throw new ReplicaBehind();
          }
          return fn(tx);
        });
      } catch (error) {
        // Behind the client's last write, or unreachable: the primary answers (a read, safe to run again).
        if (error instanceof ReplicaBehind || isDatabaseUnavailable(error)) return primary.withTenant(accountId, fn);
        throw error;
      }
    },
    async currentLsn() {
      const { rows } = await pool.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      return rows[0]?.lsn ?? '0/0';
    },
  };
}

class ReplicaBehind extends Error {}

/**
 * A pool of the primary or the replica. JIT off: PostgreSQL compiles a statement whose estimated
 * cost passes jit_above_cost, and on a big clinic the planner's guesses for partial indexes (a
 * tenth of the table) push short indexed statements past it: compiling took 100–250 ms for a 20 ms
 * statement. A server that takes no connection for 5 s answers 503 instead of holding the request
 * (a restart takes about a second; the pool reconnects by itself). A client that loses its server
 * must not crash the process: idle ones report to the pool, a checked-out one to itself (its query
 * fails, the transaction answers 503, the broken client is discarded).
 */
function newPool(connectionString: string, max: number): pg.Pool {
  // Pipeline mode (issue 34): statements sent without waiting for the previous answer go out
  // together, one round trip (a transaction's BEGIN with its first statement, a search's steps:
  // db/indexed-search.ts). Sent one after the other, as everywhere else, they behave as before.
  const pool = new pg.Pool({
    connectionString,
    max,
    options: '-c jit=off',
    connectionTimeoutMillis: 5_000,
    pipeline: true,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * node-postgres transactions that send BEGIN and the context's setup (one simple-protocol query
 * of two statements) without waiting for its answer: on the pipelining connection `fn`'s first
 * statement goes out right behind it, in the same round trip. Then COMMIT (ROLLBACK on an error).
 * The same Drizzle transaction object as `orm.transaction` gives, on one pooled client.
 */
function pooledTransactions(pool: pg.Pool, orm: AppDatabase, mode?: 'read only'): TransactionRunner {
  const { dialect, session } = orm as unknown as {
    dialect: PgDialect;
    session: ConstructorParameters<typeof NodePgSession>[2] extends infer S
      ? { schema: S; options: ConstructorParameters<typeof NodePgSession>[3] }
      : never;
  };
  return async (setup, fn) => {
    const client = await pool.connect();
    // Without the schema: the code never uses relational queries (`tx.query.<table>`), and with
    // it Drizzle builds one query builder per table (~90) for every request's transaction.
    const tx = new NodePgTransaction(
      dialect,
      new NodePgSession(client, dialect, undefined, session.options),
      undefined,
    ) as unknown as Transaction;
    let broken: Error | undefined;
    try {
      // BEGIN and the context wait in the socket's buffer for the first statement of `fn`, which
      // is sent within this turn of the event loop: one write for both instead of two (each
      // write is a system call and a wake-up of the server process on either side).
      const socket = socketOf(client);
      socket?.cork();
      const began = client.query(`begin${mode ? ` ${mode}` : ''}; ${setup}`);
      setImmediate(() => socket?.uncork());
      began.catch(() => {}); // awaited below; meanwhile a failure must not count as unhandled
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(tx);
      } catch (error) {
        await began; // a failed BEGIN explains the failure of what followed it
        throw error;
      }
      await began;
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        broken = rollbackError; // a connection that cannot roll back is closed, not reused
      });
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/**
 * One statement in its own transaction on the pipelining connection: BEGIN with the context, the
 * statement and COMMIT written at once, their answers read together. A failed setup leaves the
 * block opened by BEGIN aborted, so the statement cannot run outside the context; a failed
 * statement makes the COMMIT a ROLLBACK.
 */
function pooledStatements(pool: pg.Pool, orm: AppDatabase): StatementRunner {
  const { dialect } = orm as unknown as { dialect: PgDialect };
  return async (setup, statement) => {
    const query = dialect.sqlToQuery(statement);
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const socket = socketOf(client);
      socket?.cork();
      const steps = [
        client.query(`begin; ${setup}`),
        client.query(query.sql, query.params as unknown[]),
        client.query('commit'),
      ];
      setImmediate(() => socket?.uncork());
      const settled = await Promise.allSettled(steps);
      const failed = settled.find((step) => step.status === 'rejected');
      if (failed) {
        await client.query('rollback').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw failed.reason;
      }
    } finally {
      client.release(broken);
    }
  };
}

/** The socket under a pooled client (node-postgres keeps it on its connection). */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection
    ?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void })
    : undefined;
}

/** Applies migrations on one dedicated connection holding an advisory lock. */
async function migratePostgres(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
    await client.end();
  }
}

function assemble(
  kind: DatabaseKind,
  orm: AppDatabase,
  transactions: TransactionRunner,
  closeClient: () => Promise<void>,
  dump?: () => Promise<Blob>,
  statements?: StatementRunner,
): Database {
  let closing: Promise<void> | undefined;
  const tenancy = createTenancy(transactions, statements);
  return {
    kind,
    orm,
    ...(dump ? { dump } : {}),
    ...tenancy,
    hasReplica: false,
    // No replica: the primary reads it all.
    withTenantRead: (accountId, _minLsn, fn) => tenancy.withTenant(accountId, fn),
    async ping() {
      await orm.execute(sql`select 1`);
    },
    close() {
      closing ??= closeClient();
      return closing;
    },
  };
}

import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

/**
 * Tenancy (ARCHITECTURE §4). Every clinic-owned table is under row-level security; a request
 * runs in ONE transaction that switches to a role without BYPASSRLS and names its clinic:
 *
 *   set_config('role', 'odontia_app', true), set_config('app.account_id', <id>, true)
 *
 * Both settings are transaction-local, so a pooled connection goes back clean. The type of the
 * handle says which context a repository was given; a plain transaction is neither.
 */

type Schema = typeof schema;

/** What `execute` answers on both drivers (PGlite `Results`, node-postgres `QueryResult`). */
interface RowsResult<TRow> {
  rows: TRow[];
}
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}

export type AppDatabase = PgDatabase<RowsResultHKT, Schema>;
type Transaction = PgTransaction<RowsResultHKT, Schema>;

declare const context: unique symbol;
/** A transaction in one clinic's context: RLS shows and accepts that clinic's rows only. */
export type TenantTx = Transaction & { readonly [context]: 'tenant' };
/** A transaction in the system context: for auth look-ups across clinics only. */
export type SystemTx = Transaction & { readonly [context]: 'system' };

export const appRole = 'odontia_app';
export const systemRole = 'odontia_system';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Tenancy {
  /** Runs `fn` in one transaction in the context of clinic `accountId`. */
  withTenant<T>(accountId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction in the system context. */
  withSystem<T>(fn: (tx: SystemTx) => Promise<T>): Promise<T>;
}

export function createTenancy(orm: AppDatabase): Tenancy {
  return {
    withTenant(accountId, fn) {
      if (!uuidPattern.test(accountId)) {
        return Promise.reject(new TypeError('withTenant needs the clinic id as a UUID'));
      }
      return orm.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('role', ${appRole}, true), set_config('app.account_id', ${accountId}, true)`,
        );
        return fn(tx as unknown as TenantTx);
      });
    },
    withSystem(fn) {
      return orm.transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', ${systemRole}, true), set_config('app.account_id', '', true)`);
        return fn(tx as unknown as SystemTx);
      });
    },
  };
}

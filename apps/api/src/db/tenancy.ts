import { type SQL, sql } from 'drizzle-orm';
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
export type Transaction = PgTransaction<RowsResultHKT, Schema>;

declare const context: unique symbol;
/** A transaction in one clinic's context: RLS shows and accepts that clinic's rows only. */
export type TenantTx = Transaction & { readonly [context]: 'tenant' };
/** A transaction in the system context: for auth look-ups across clinics only. */
export type SystemTx = Transaction & { readonly [context]: 'system' };

export const appRole = 'odontia_app';
/**
 * A patient's transaction in the portal (issue 37): a member of odontia_app (the clinic's
 * policies hold) whose RESTRICTIVE policies show only the rows of `app.patient_id` (migration 0033).
 */
export const portalRole = 'odontia_portal';
export const systemRole = 'odontia_system';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Tenancy {
  /** Runs `fn` in one transaction in the context of clinic `accountId`. */
  withTenant<T>(accountId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction in the context of clinic `accountId` AS its patient `patientId`
   * (a customer session, issue 37): the database refuses every other patient's rows.
   */
  withPatient<T>(accountId: string, patientId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction in the system context. */
  withSystem<T>(fn: (tx: SystemTx) => Promise<T>): Promise<T>;
  /**
   * One statement, its own transaction, in the context of clinic `accountId`: on PostgreSQL BEGIN,
   * the context, the statement and COMMIT leave in one write (a provider's delivery reports: two
   * or three per message, thousands a minute).
   */
  tenantStatement(accountId: string, statement: SQL): Promise<void>;
}

/** Runs one statement in a transaction whose first statement is `setup`, as `TransactionRunner` does. */
export type StatementRunner = (setup: string, statement: SQL) => Promise<void>;

/**
 * Runs `fn` in a transaction whose first statement is `setup` (SQL text built here from
 * constants and a validated UUID, never from a caller's input).
 */
export type TransactionRunner = <T>(setup: string, fn: (tx: Transaction) => Promise<T>) => Promise<T>;

/** Any driver: Drizzle's transaction, then the setup as its first statement (PGlite: no network). */
export function drizzleTransactions(orm: AppDatabase): TransactionRunner {
  return (setup, fn) =>
    orm.transaction(async (tx) => {
      await tx.execute(sql.raw(setup));
      return fn(tx as unknown as Transaction);
    });
}

const contextSetup = (role: string, accountId: string) =>
  `select set_config('role', '${role}', true), set_config('app.account_id', '${accountId}', true)`;
const systemSetup = contextSetup(systemRole, '');
const patientSetup = (accountId: string, patientId: string) =>
  `${contextSetup(portalRole, accountId)}, set_config('app.patient_id', '${patientId}', true)`;

export function createTenancy(
  transaction: TransactionRunner,
  statement: StatementRunner = (setup, query) =>
    transaction(setup, async (tx) => {
      await tx.execute(query);
    }),
): Tenancy {
  return {
    tenantStatement(accountId, query) {
      if (!uuidPattern.test(accountId)) {
        return Promise.reject(new TypeError('tenantStatement needs the clinic id as a UUID'));
      }
      return statement(contextSetup(appRole, accountId), query);
    },
    withTenant(accountId, fn) {
      if (!uuidPattern.test(accountId)) {
        return Promise.reject(new TypeError('withTenant needs the clinic id as a UUID'));
      }
      // The id is a validated UUID: safe in the statement's text.
      return transaction(contextSetup(appRole, accountId), (tx) => fn(tx as TenantTx));
    },
    withPatient(accountId, patientId, fn) {
      if (!uuidPattern.test(accountId) || !uuidPattern.test(patientId)) {
        return Promise.reject(new TypeError('withPatient needs the clinic and the patient ids as UUIDs'));
      }
      // Both ids are validated UUIDs: safe in the statement's text.
      return transaction(patientSetup(accountId, patientId), (tx) => fn(tx as TenantTx));
    },
    withSystem(fn) {
      return transaction(systemSetup, (tx) => fn(tx as SystemTx));
    },
  };
}

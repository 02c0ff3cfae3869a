import { and, asc, count, eq, getTableColumns, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import type { TenantScope } from '../../db/list-query.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { recordRepository } from '../../db/records.ts';
import { accountCounters, patients, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** The clinic's patients (tenant context; every query also names the clinic for its indexes). Deleted ones never come out. */

const { searchText: _searchText, ...patientColumns } = getTableColumns(patients);
export type PatientRow = Omit<typeof patients.$inferSelect, 'searchText'>;
export type PatientRowWithNames = PatientRow & { createdByName: string | null; updatedByName: string | null };

const sortColumns = {
  lastName: patients.lastName,
  firstName: patients.firstName,
  skuPatient: patients.skuPatient,
  birthdate: patients.birthdate,
  createdAt: patients.createdAt,
  updatedAt: patients.updatedAt,
} as const;

export interface PatientFilters {
  q?: string | undefined;
  sort?: string | undefined;
  active?: boolean | undefined;
}

const live = (accountId: string) => and(eq(patients.accountId, accountId), isNull(patients.deletedAt));

/** The list's filters but the clinic and the words: not deleted, active or not. */
function filterOf(filters: PatientFilters): SQL | undefined {
  return and(
    isNull(patients.deletedAt),
    filters.active === undefined ? undefined : eq(patients.active, filters.active),
  );
}

function whereOf(accountId: string, filters: PatientFilters): SQL | undefined {
  return and(eq(patients.accountId, accountId), searchCondition(patients.searchText, filters.q), filterOf(filters));
}

/** The sort column, then last and first name and the id, so pages never overlap. */
function orderOf(sort: string | undefined): SQL[] {
  const descending = sort?.startsWith('-') ?? false;
  const key = (sort?.replace(/^-/, '') ?? 'lastName') as keyof typeof sortColumns;
  const column = sortColumns[key] ?? patients.lastName;
  const direction = (value: unknown) => (descending ? sql`${value} desc nulls last` : sql`${value} asc nulls last`);
  const order = [direction(column)];
  if (column !== patients.lastName) order.push(direction(patients.lastName));
  if (column !== patients.firstName) order.push(direction(patients.firstName));
  order.push(asc(patients.id));
  return order;
}

/** Past this many matches a search says "more than 1,000" instead of counting them all. */
export const patientSearchCountCap = 1000;

/** A search page's rows, read back under RLS by their ids (one statement text for any page size). */
const patientsByIdsQuery = preparedQuery<{ accountId: string; ids: string[] }, PatientRow[]>('patients_by_ids', (db) =>
  db
    .select(patientColumns)
    .from(patients)
    .where(
      and(
        eq(patients.accountId, sql.placeholder('accountId')),
        isNull(patients.deletedAt),
        sql`${patients.id} = any(${sql.placeholder('ids')}::uuid[])`,
      ),
    ),
);

/**
 * One page and the number of matches (two or three queries, whatever the page size). A search
 * with more than `patientSearchCountCap` matches gives that number as a floor.
 */
export async function listPatients(
  tx: TenantTx,
  accountId: string,
  query: PatientFilters & { page: number; pageSize: number },
): Promise<{ rows: PatientRow[]; total: number; totalIsLowerBound: boolean }> {
  if (usesTrigramIndex(query.q)) {
    const { ids, total, totalIsLowerBound } = await findPageIds(tx, accountId, {
      table: patients,
      id: patients.id,
      q: query.q ?? '',
      filter: filterOf(query),
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
      countCap: patientSearchCountCap,
      // patients_name_idx: (account_id, last_name, first_name, id) INCLUDE (search_text, active).
      orderedByCoveringIndex: query.sort === undefined || query.sort === 'lastName',
    });
    if (ids.length === 0) return { rows: [], total, totalIsLowerBound };
    const found = await patientsByIdsQuery(tx, { accountId, ids });
    return { rows: inIdOrder(ids, found), total, totalIsLowerBound };
  }
  const where = whereOf(accountId, query);
  const rows = await tx
    .select(patientColumns)
    .from(patients)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await tx.select({ n: count() }).from(patients).where(where);
  return { rows, total: total?.n ?? 0, totalIsLowerBound: false };
}

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const findPatientQuery = preparedQuery<{ accountId: string; id: string }, PatientRowWithNames[]>(
  'patients_find',
  (db) =>
    db
      .select({ ...patientColumns, createdByName: creator.completeName, updatedByName: updater.completeName })
      .from(patients)
      .leftJoin(creator, and(eq(creator.accountId, patients.accountId), eq(creator.id, patients.createdBy)))
      .leftJoin(updater, and(eq(updater.accountId, patients.accountId), eq(updater.id, patients.updatedBy)))
      .where(
        and(
          eq(patients.accountId, sql.placeholder('accountId')),
          isNull(patients.deletedAt),
          eq(patients.id, sql.placeholder('id')),
        ),
      ),
);

/** One patient (not deleted), with the names of who created and last changed them (a prepared query). */
export async function findPatient(
  tx: TenantTx,
  accountId: string,
  id: string,
): Promise<PatientRowWithNames | undefined> {
  const [row] = await findPatientQuery(tx, { accountId, id });
  return row;
}

/** The clinic's patients as a versioned, soft-deleted record: the writes of create, edit and delete. */
export const patientRecords = recordRepository({ table: patients, scope: [], order: orderOf(undefined) });

/** A patient of the clinic (not deleted, not `exceptId`) with this ID number, any case. */
export async function findBySsn(
  { tx, accountId }: TenantScope,
  ssn: string,
  exceptId?: string,
): Promise<{ id: string; firstName: string; lastName: string } | undefined> {
  const [row] = await tx
    .select({ id: patients.id, firstName: patients.firstName, lastName: patients.lastName })
    .from(patients)
    .where(
      and(
        live(accountId),
        sql`lower(${patients.ssn}) = lower(${ssn})`,
        exceptId ? ne(patients.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

/** The clinic's next number of a counter ('patient' → 1, 2, 3…), under the counter row's lock. */
export async function nextCounterValue({ tx, accountId }: TenantScope, name: string): Promise<number> {
  const [row] = await tx
    .insert(accountCounters)
    .values({ accountId, name, value: 1 })
    .onConflictDoUpdate({
      target: [accountCounters.accountId, accountCounters.name],
      set: { value: sql`${accountCounters.value} + 1` },
    })
    .returning({ value: accountCounters.value });
  if (!row) throw new Error(`counter ${name} returned no value`);
  return row.value;
}

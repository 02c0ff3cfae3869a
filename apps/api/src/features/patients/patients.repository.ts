import { and, asc, count, eq, getTableColumns, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  findPage,
  inIdOrder,
  pageIds,
  searchCondition,
  sendInOrder,
  usesTrigramIndex,
} from '../../db/indexed-search.ts';
import type { TenantScope } from '../../db/list-query.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { recordRepository, sameClinicRow } from '../../db/records.ts';
import { accounts, appointments, patients, users } from '../../db/schema/index.ts';
import { keptKey } from '../../db/spanish-order.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/** The clinic's patients (tenant context; every query also names the clinic for its indexes). Deleted ones never come out. */

const {
  searchText: _searchText,
  lastNameKey: _lastNameKey,
  firstNameKey: _firstNameKey,
  ...patientColumns
} = getTableColumns(patients);
export type PatientRow = Omit<typeof patients.$inferSelect, 'searchText' | 'lastNameKey' | 'firstNameKey'>;
export type PatientRowWithNames = PatientRow & { createdByName: string | null; updatedByName: string | null };

const byLastName = keptKey(patients.lastNameKey);
const byFirstName = keptKey(patients.firstNameKey);
/** Names in Spanish order (db/spanish-order.ts), kept on the row, as patients_name_idx and patients_first_name_idx hold them. */
const sortColumns = {
  lastName: byLastName,
  firstName: byFirstName,
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
  const column = sortColumns[key] ?? byLastName;
  const direction = (value: unknown) => (descending ? sql`${value} desc nulls last` : sql`${value} asc nulls last`);
  const order = [direction(column)];
  if (column !== byLastName) order.push(direction(byLastName));
  if (column !== byFirstName) order.push(direction(byFirstName));
  order.push(asc(patients.id));
  return order;
}

/** Past this many matches a search says "more than 1,000" instead of counting them all. */
export const patientSearchCountCap = 1000;

/** A patient's next scheduled appointment (from `now` on: the start of the clinic's day), as the list shows it. */
export interface NextAppointment {
  id: string;
  startsAt: string;
  professionalName: string;
}

export type ListedPatientRow = PatientRow & { nextAppointment: NextAppointment | null };

/**
 * Each listed patient's next appointment, in the same statement as the rows: the first scheduled
 * one from `now` on (appointments_patient_idx), with its professional's name. (The patient's
 * columns are written qualified: a one-table select names its own columns bare.)
 */
function nextAppointmentOf(now: SQL) {
  return sql<NextAppointment | null>`(select json_build_object('id', a.id, 'startsAt', a.starts_at, 'professionalName', u.complete_name)
    from ${appointments} a join ${users} u on u.account_id = a.account_id and u.id = a.professional_id
    where a.account_id = "patients"."account_id" and a.patient_id = "patients"."id" and a.deleted_at is null
      and a.status = 'scheduled' and a.starts_at >= ${now}
    order by a.starts_at limit 1)`;
}

const listedColumns = (now: SQL) => ({ ...patientColumns, nextAppointment: nextAppointmentOf(now) });

/** `startsAt` as the API answers it (json_build_object writes PostgreSQL's timestamptz text). */
function listed(row: ListedPatientRow): ListedPatientRow {
  const next = row.nextAppointment;
  return next ? { ...row, nextAppointment: { ...next, startsAt: new Date(next.startsAt).toISOString() } } : row;
}

/**
 * A search page's rows with their next appointments, read back under RLS by the ids the search
 * kept in the transaction (`pageIds`): sent in the search's round trip, one statement text for
 * any page.
 */
const pageRowsQuery = preparedQuery<{ accountId: string; now: string }, ListedPatientRow[]>(
  'patients_page_rows',
  (db) =>
    db
      .select(listedColumns(sql`${sql.placeholder('now')}::timestamptz`))
      .from(patients)
      .where(
        and(
          eq(patients.accountId, sql.placeholder('accountId')),
          isNull(patients.deletedAt),
          sql`${patients.id} = any(${pageIds})`,
        ),
      ),
);

/**
 * One page, the number of matches and each patient's next appointment. A search (a word of three
 * letters or more) is one round trip to the database (db/indexed-search.ts `findPage`); with more
 * than `patientSearchCountCap` matches it gives that number as a floor. A list without one sends
 * the page and the count together.
 */
export async function listPatients(
  tx: TenantTx,
  accountId: string,
  query: PatientFilters & { page: number; pageSize: number },
  now: Date,
): Promise<{ rows: ListedPatientRow[]; total: number; totalIsLowerBound: boolean }> {
  if (usesTrigramIndex(query.q)) {
    const { ids, total, totalIsLowerBound, rows } = await findPage(
      tx,
      accountId,
      {
        table: patients,
        id: patients.id,
        q: query.q ?? '',
        filter: filterOf(query),
        orderBy: orderOf(query.sort),
        page: query.page,
        pageSize: query.pageSize,
        countCap: patientSearchCountCap,
        // patients_name_idx: (account_id, last_name_key, first_name_key, id) INCLUDE (search_text, active).
        orderedByCoveringIndex: query.sort === undefined || query.sort === 'lastName',
      },
      () => pageRowsQuery(tx, { accountId, now: now.toISOString() }),
    );
    return { rows: inIdOrder(ids, rows).map(listed), total, totalIsLowerBound };
  }
  const where = whereOf(accountId, query);
  const [rows, [counted]] = await sendInOrder<[ListedPatientRow[], { n: number }[]]>(tx, [
    () =>
      tx
        .select(listedColumns(sql`${now.toISOString()}::timestamptz`))
        .from(patients)
        .where(where)
        .orderBy(...orderOf(query.sort))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
    () => tx.select({ n: count() }).from(patients).where(where).execute(),
  ]);
  return { rows: rows.map(listed), total: counted?.n ?? 0, totalIsLowerBound: false };
}

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const findPatientQuery = preparedQuery<{ accountId: string; id: string }, PatientRowWithNames[]>(
  'patients_find',
  (db) =>
    db
      .select({ ...patientColumns, createdByName: creator.completeName, updatedByName: updater.completeName })
      .from(patients)
      .leftJoin(creator, sameClinicRow(creator, patients, patients.createdBy))
      .leftJoin(updater, sameClinicRow(updater, patients, patients.updatedBy))
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

/**
 * The live patient of the clinic with this ID number and e-mail, any case: how a patient who is
 * not signed in proves who they are (an access request, a public booking). The ID number is unique
 * among a clinic's live patients, so there is at most one.
 */
export async function findByIdNumberAndEmail(
  tx: TenantTx | SystemTx,
  accountId: string,
  idNumber: string,
  email: string,
): Promise<{ id: string } | undefined> {
  const [row] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(
      and(
        live(accountId),
        sql`lower(${patients.ssn}) = ${idNumber.trim().toLowerCase()}`,
        sql`lower(${patients.email}) = ${email.trim().toLowerCase()}`,
      ),
    )
    .limit(1);
  return row;
}

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

/** What a new patient of the clinic starts with (the language of their mails). */
export async function findNewcomerDefaults({ tx, accountId }: { tx: TenantTx; accountId: string }) {
  const [row] = await tx
    .select({
      language: accounts.defaultLanguage,
      dateFormat: accounts.dateFormat,
      currency: accounts.systemCurrency,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!row) throw new Error(`clinic ${accountId} not found`);
  return row;
}

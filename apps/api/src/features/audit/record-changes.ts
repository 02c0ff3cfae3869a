import type { RecordChange } from '@odontia/shared/schemas/records';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { sameClinicRow } from '../../db/records.ts';
import {
  auditEvents,
  authorizationTemplates,
  chairs,
  customers,
  inventoryItems,
  patients,
  pointsOfSale,
  providers,
  treatments,
  users,
} from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/**
 * A record's "history of changes" (issue 5): its audit events (entity + id), newest first, with
 * the name of who made each — one page from the (account_id, entity, entity_id, seq) index and
 * one count. Any audited record (patient, diagnosis, laboratory, attendance…) can use it.
 */
export async function listRecordChanges(
  tx: TenantTx,
  accountId: string,
  record: { entity: string; entityId: string },
  page: { page: number; pageSize: number },
): Promise<{ data: RecordChange[]; total: number; page: number; pageSize: number }> {
  const where = and(
    eq(auditEvents.accountId, accountId),
    eq(auditEvents.entity, record.entity),
    eq(auditEvents.entityId, record.entityId),
  );
  const rows = await tx
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      userId: auditEvents.userId,
      userName: users.completeName,
      createdAt: auditEvents.createdAt,
      before: auditEvents.before,
      after: auditEvents.after,
    })
    .from(auditEvents)
    .leftJoin(users, sameClinicRow(users, auditEvents, auditEvents.userId))
    .where(where)
    .orderBy(desc(auditEvents.seq))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(auditEvents).where(where);
  const labels = await labelsOf(
    tx,
    accountId,
    rows.flatMap((row) => [...idsIn(row.before), ...idsIn(row.after)]),
  );
  return {
    data: rows.map((row) => {
      const ids = new Set([...idsIn(row.before), ...idsIn(row.after)]);
      return {
        id: row.id,
        action: row.action,
        userId: row.userId,
        userName: row.userName,
        createdAt: row.createdAt.toISOString(),
        before: (row.before as Record<string, unknown> | null) ?? null,
        after: (row.after as Record<string, unknown> | null) ?? null,
        labels: Object.fromEntries([...ids].flatMap((id) => (labels.has(id) ? [[id, labels.get(id) as string]] : []))),
      };
    }),
    total: total?.n ?? 0,
    page: page.page,
    pageSize: page.pageSize,
  };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The record ids a version of a record names: its fields' values (or list items) that are UUIDs. */
function idsIn(version: unknown): string[] {
  if (!version || typeof version !== 'object') return [];
  return Object.values(version as Record<string, unknown>)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string' && uuidPattern.test(value))
    .map((value) => value.toLowerCase());
}

/**
 * What a history of changes shows for the ids its versions name (issue 34): the professional's,
 * the patient's, the treatment's, the chair's… name, not a UUID. One statement for the whole page
 * (a union over the clinic's named records, by primary key), whatever the number of rows.
 */
async function labelsOf(tx: TenantTx, accountId: string, ids: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const list = sql.join(
    wanted.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const named = (table: PgTable & { accountId: AnyPgColumn; id: AnyPgColumn }, label: SQL) =>
    sql`select ${table.id}::text as id, ${label} as label from ${table} where ${table.accountId} = ${accountId} and ${table.id} in (${list})`;
  const { rows } = await tx.execute<{ id: string; label: string | null }>(
    sql.join(
      [
        named(users, sql`${users.completeName}`),
        named(patients, sql`${patients.firstName} || ' ' || ${patients.lastName}`),
        named(treatments, sql`${treatments.name}`),
        named(chairs, sql`${chairs.name}`),
        named(inventoryItems, sql`${inventoryItems.name}`),
        named(providers, sql`${providers.fantasyName}`),
        named(customers, sql`${customers.name}`),
        named(pointsOfSale, sql`${pointsOfSale.code} || ' · ' || ${pointsOfSale.name}`),
        named(authorizationTemplates, sql`${authorizationTemplates.title}`),
      ],
      sql` union all `,
    ),
  );
  return new Map(rows.flatMap((row) => (row.label ? [[row.id.toLowerCase(), row.label] as const] : [])));
}

/** The fields that differ between two versions of a record, as `before` and `after` of an audit event. */
export function changedFields(
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(current[key] ?? null) !== JSON.stringify(value ?? null)) {
      before[key] = current[key] ?? null;
      after[key] = value ?? null;
    }
  }
  return { before, after };
}

/** The listed columns whose value differs (strictly), as `before` and `after` of an audit event. */
export function changedColumns<Columns>(names: readonly (keyof Columns)[], before: Columns, after: Columns) {
  const differing = names.filter((name) => before[name] !== after[name]);
  return {
    before: Object.fromEntries(differing.map((name) => [name, before[name]])),
    after: Object.fromEntries(differing.map((name) => [name, after[name]])),
  };
}

import type { RecordChange } from '@odontia/shared/schemas/records';
import { and, count, desc, eq } from 'drizzle-orm';
import { auditEvents, users } from '../../db/schema/index.ts';
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
    .leftJoin(users, and(eq(users.accountId, auditEvents.accountId), eq(users.id, auditEvents.userId)))
    .where(where)
    .orderBy(desc(auditEvents.seq))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(auditEvents).where(where);
  return {
    data: rows.map((row) => ({
      id: row.id,
      action: row.action,
      userId: row.userId,
      userName: row.userName,
      createdAt: row.createdAt.toISOString(),
      before: (row.before as Record<string, unknown> | null) ?? null,
      after: (row.after as Record<string, unknown> | null) ?? null,
    })),
    total: total?.n ?? 0,
    page: page.page,
    pageSize: page.pageSize,
  };
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

import { and, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { liveWhere, sameClinicRow } from '../../db/records.ts';
import { auditEvents, inventoryItems, patients, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/**
 * The clinic's latest audit events of some entities, with the names a person reads (author,
 * patient, item) joined in the same query. Walks the (account_id, seq) index backwards.
 */
export async function latestEvents(
  { tx, accountId }: { tx: TenantTx; accountId: string },
  entities: string[],
  limit: number,
) {
  if (entities.length === 0) return [];
  const author = alias(users, 'author');
  return (
    tx
      .select({
        id: auditEvents.id,
        action: auditEvents.action,
        entity: auditEvents.entity,
        entityId: auditEvents.entityId,
        patientId: patients.id,
        patientFirstName: patients.firstName,
        patientLastName: patients.lastName,
        itemName: inventoryItems.name,
        userName: author.completeName,
        createdAt: auditEvents.createdAt,
      })
      .from(auditEvents)
      .leftJoin(author, sameClinicRow(author, auditEvents, auditEvents.userId))
      // A deleted patient's events stay in the audit, but the stream neither names nor links them.
      .leftJoin(patients, liveWhere(patients, auditEvents.accountId, patients.id, auditEvents.patientId))
      .leftJoin(
        inventoryItems,
        and(
          eq(inventoryItems.accountId, auditEvents.accountId),
          eq(inventoryItems.id, auditEvents.entityId),
          inArray(auditEvents.entity, ['medication', 'supply']),
        ),
      )
      .where(and(eq(auditEvents.accountId, accountId), inArray(auditEvents.entity, entities)))
      .orderBy(desc(auditEvents.seq))
      .limit(limit)
  );
}

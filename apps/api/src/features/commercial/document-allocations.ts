import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import { commercialDocuments, paymentAllocations, payments } from '../../db/schema/index.ts';

/** What settled a sale or a purchase: the allocations of payments and credit notes to one document. */

/** The payments and credit notes applied to this document. */
export async function allocationsOf(scope: TenantScope, documentId: string) {
  const credit = alias(commercialDocuments, 'credit');
  return scope.tx
    .select({
      id: paymentAllocations.id,
      paymentId: paymentAllocations.paymentId,
      paymentNumber: payments.number,
      creditDocumentId: paymentAllocations.creditDocumentId,
      paymentDate: payments.date,
      creditDate: credit.date,
      amount: paymentAllocations.amount,
      reversedAt: paymentAllocations.reversedAt,
      createdAt: paymentAllocations.createdAt,
    })
    .from(paymentAllocations)
    .leftJoin(payments, sameClinicRow(payments, paymentAllocations, paymentAllocations.paymentId))
    .leftJoin(credit, sameClinicRow(credit, paymentAllocations, paymentAllocations.creditDocumentId))
    .where(and(eq(paymentAllocations.accountId, scope.accountId), eq(paymentAllocations.documentId, documentId)))
    .orderBy(asc(paymentAllocations.createdAt), asc(paymentAllocations.id));
}

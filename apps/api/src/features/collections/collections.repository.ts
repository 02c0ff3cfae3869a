import type { CollectionListQuery } from '@odontia/shared/schemas/collections';
import { eq, type SQL, sql } from 'drizzle-orm';
import { sameClinicRow } from '../../db/records.ts';
import { customers, payments } from '../../db/schema/index.ts';
import type { PartyJoin } from '../commercial/party-join.ts';

/**
 * Collections (issue 18): the customer side of `payments`. Writing one is customers/record-collection.ts;
 * reading, locking and changing the state of one are the shared
 * features/commercial/side-payments.repository.ts, with the customer joined for its name and kind.
 */

export const customerJoin: PartyJoin<{
  customerName: string | null;
  customerKind: 'patient' | 'company' | 'insurer' | null;
}> = {
  table: customers,
  on: sameClinicRow(customers, payments, payments.customerId),
  fields: {
    customerName: sql<string | null>`coalesce(${customers.name}, ${payments.counterpartySnapshot} ->> 'name')`,
    customerKind: customers.kind,
  },
};

/** The collections list's own filters (the shared list adds status, dates and the search). */
export const collectionFilters = (query: CollectionListQuery): (SQL | undefined)[] => [
  query.customerId ? eq(payments.customerId, query.customerId) : undefined,
  query.patientId ? eq(payments.patientId, query.patientId) : undefined,
  // Any of its parts (issue 35): a cash + card collection is listed under either method.
  query.method ? sql`${payments.parts} @> ${JSON.stringify([{ method: query.method }])}::jsonb` : undefined,
];

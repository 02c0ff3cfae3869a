import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency, DocumentType, PaymentMethod } from '@odontia/shared/enums';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import type {
  Collection,
  CollectionListItem,
  CollectionListQuery,
  CreateCollection,
  CustomerOpenDocuments,
} from '@odontia/shared/schemas/collections';
import type { AllocationInput } from '@odontia/shared/schemas/payments';
import Big from 'big.js';
import { AppError } from '../../lib/app-error.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import * as accounts from '../current-accounts/customer-accounts.repository.ts';
import { allocateToDocuments, postLedgerEntries, reversePaymentAllocations } from '../current-accounts/ledger.ts';
import { findCustomer, resolveCustomer } from '../customers/customer-parties.ts';
import { loadPrintHeader } from '../fiscal/print-header.ts';
import { allocationsOf } from '../payments/payments.repository.ts';
import * as repository from './collections.repository.ts';
import { recordCollection } from './record-collection.ts';

/**
 * Collections (cobranzas, issue 18; docs/decisions.md "Sales and collections"). A collection is
 * never edited: it is created through `recordCollection` (a `payment` credit of the customer's
 * account, allocated at once to open sales or left on account), its remainder is allocated later,
 * pending → paid is its only change of state, and a mistake is reversed with a reason (a
 * `payment_reversal` debit; its allocations are undone so the sales owe again).
 */

type AllocationRow = Awaited<ReturnType<typeof allocationsOf>>[number];

function presentItem(row: repository.CollectionRowWithNames): CollectionListItem {
  const reversed = row.reversedAt !== null;
  return {
    id: row.id,
    number: row.number,
    customerId: row.customerId as string,
    customerName: row.customerName ?? '',
    customerKind: row.customerKind ?? 'company',
    patientId: row.patientId,
    date: row.date,
    amount: row.amount,
    currency: row.currency as Currency,
    method: row.method as PaymentMethod,
    transactionNumber: row.transactionNumber,
    notes: row.notes,
    status: row.status,
    paidOn: row.paidOn,
    allocatedAmount: row.allocatedAmount,
    unallocatedAmount: reversed ? '0.00' : new Big(row.amount).minus(row.allocatedAmount).toFixed(2),
    reversedAt: row.reversedAt?.toISOString() ?? null,
    reversedByName: row.reversedByName,
    reversalReason: row.reversalReason,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

function presentAllocation(row: AllocationRow): Collection['allocations'][number] {
  return {
    id: row.id,
    document: {
      id: row.documentId,
      documentType: row.documentType as DocumentType,
      pointOfService: row.pointOfService,
      documentNumber: row.documentNumber,
      date: row.date,
      total: row.total,
    },
    amount: row.amount,
    createdAt: row.createdAt.toISOString(),
    reversed: row.reversedAt !== null,
  };
}

const sumOf = (allocations: AllocationInput[]) =>
  allocations.reduce((total, allocation) => total.plus(allocation.amount), new Big(0));

async function get(ctx: RequestContext, id: string): Promise<Collection> {
  const row = await repository.findCollection(ctx, id);
  if (!row) throw new AppError('collection_not_found');
  const allocations = await allocationsOf(ctx, [id]);
  return {
    ...presentItem(row),
    allocations: allocations.map(presentAllocation),
    counterpartySnapshot: (row.counterpartySnapshot as PartySnapshot | null) ?? null,
  };
}

/** The collection locked, at the version the client saw, not reversed. */
async function lockCurrent(ctx: RequestContext, id: string, version: number) {
  const current = await repository.lockCollection(ctx, id);
  if (!current) throw new AppError('collection_not_found');
  if (current.version !== version) throw new AppError('version_conflict', { current: await get(ctx, id) });
  if (current.reversedAt) throw new AppError('collection_already_reversed');
  return current;
}

export const collectionsService = {
  get: ({ ctx, id }: { ctx: RequestContext; id: string }) => get(ctx, id),

  async list({ ctx, query }: { ctx: RequestContext; query: CollectionListQuery }) {
    const { rows, total, totalIsLowerBound } = await repository.listCollections(ctx, query);
    return {
      data: rows.map(presentItem),
      total,
      ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  async create({ ctx, input }: { ctx: RequestContext; input: CreateCollection }): Promise<Collection> {
    // A collection is money received: an inactive customer may still pay what it owes.
    const customer = await resolveCustomer(ctx, { customerId: input.customerId, patientId: input.patientId });
    const { id } = await recordCollection(ctx, {
      customer,
      date: input.date,
      amount: input.amount,
      currency: input.currency,
      method: input.method,
      transactionNumber: input.transactionNumber ?? null,
      notes: input.notes ?? null,
      status: input.status,
      paidOn: input.paidOn ?? null,
      allocations: input.allocations,
    });
    return get(ctx, id);
  },

  /** Allocates what is still on account to open sales of the same customer and currency. */
  async allocate({
    ctx,
    id,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    input: { version: number; allocations: AllocationInput[] };
  }): Promise<Collection> {
    const current = await lockCurrent(ctx, id, input.version);
    const onAccount = new Big(current.amount).minus(current.allocatedAmount);
    const allocating = sumOf(input.allocations);
    if (allocating.gt(onAccount)) {
      throw new AppError('payment_over_allocation', {
        onAccount: onAccount.toFixed(2),
        allocated: allocating.toFixed(2),
      });
    }
    await allocateToDocuments(
      ctx,
      { paymentId: id, side: 'sale', partyId: current.customerId as string, currency: current.currency },
      input.allocations,
    );
    const allocatedAmount = allocating.plus(current.allocatedAmount).toFixed(2);
    await repository.updateCollection(ctx, id, { allocatedAmount });
    await audit(ctx, {
      action: 'collection_allocated',
      entity: 'collection',
      entityId: id,
      before: { allocatedAmount: current.allocatedAmount, version: current.version },
      after: { allocatedAmount, allocations: input.allocations, version: current.version + 1 },
    });
    return get(ctx, id);
  },

  /**
   * Reverses a collection: its allocations are undone (the sales owe again what it paid), a
   * `payment_reversal` debit of the whole amount is posted on the clinic's today (never before the
   * collection's own date), and the collection is marked reversed with the reason.
   */
  async reverse({
    ctx,
    id,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    input: { version: number; reason: string };
  }): Promise<Collection> {
    const current = await lockCurrent(ctx, id, input.version);
    const undone = await reversePaymentAllocations(ctx, id);
    await postLedgerEntries(ctx, [
      {
        partyKind: 'customer',
        partyId: current.customerId as string,
        date: [clinicToday(ctx.timeZone), current.date].sort().at(-1) as string,
        kind: 'payment_reversal',
        paymentId: id,
        description: input.reason,
        debit: current.amount,
      },
    ]);
    await repository.updateCollection(ctx, id, {
      reversedAt: new Date(),
      reversedBy: ctx.userId,
      reversalReason: input.reason,
    });
    await audit(ctx, {
      action: 'collection_reversed',
      entity: 'collection',
      entityId: id,
      before: {
        number: current.number,
        customerId: current.customerId,
        date: current.date,
        amount: current.amount,
        method: current.method,
        status: current.status,
        allocatedAmount: current.allocatedAmount,
      },
      after: { reason: input.reason, reallocatedToDocuments: undone, version: current.version + 1 },
    });
    return get(ctx, id);
  },

  /** pending → paid on `paidOn` (a post-dated cheque was cashed, an announced transfer arrived). */
  async markPaid({
    ctx,
    id,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    input: { version: number; paidOn: string };
  }): Promise<Collection> {
    const current = await lockCurrent(ctx, id, input.version);
    if (current.status === 'paid') throw new AppError('collection_already_paid');
    await repository.updateCollection(ctx, id, { status: 'paid', paidOn: input.paidOn });
    await audit(ctx, {
      action: 'collection_marked_paid',
      entity: 'collection',
      entityId: id,
      before: { status: 'pending', paidOn: null, version: current.version },
      after: { status: 'paid', paidOn: input.paidOn, version: current.version + 1 },
    });
    return get(ctx, id);
  },

  /** The customer's open sales (oldest due first), balance and on-account credit. */
  async openDocuments({
    ctx,
    customerId,
  }: {
    ctx: RequestContext;
    customerId: string;
  }): Promise<CustomerOpenDocuments> {
    const customer = await findCustomer(ctx, customerId);
    if (!customer) throw new AppError('customer_not_found');
    const account = await accounts.findCustomerAccount(ctx, clinicToday(ctx.timeZone), customerId);
    const rows = await repository.openDocumentsOf(ctx, customerId);
    return {
      customerId,
      name: customer.name,
      balance: new Big(account?.balance ?? 0).toFixed(2),
      onAccount: new Big(account?.credit_on_account ?? 0).plus(account?.unallocated ?? 0).toFixed(2),
      documents: rows.map((row) => ({
        ...row,
        documentType: row.documentType as DocumentType,
        currency: row.currency as Currency,
      })),
    };
  },

  /** What the receipt prints: the collection, the clinic, the customer's language. */
  async printable({ ctx, id }: { ctx: RequestContext; id: string }) {
    const collection = await get(ctx, id);
    const customer = await findCustomer(ctx, collection.customerId);
    return { collection, customerLanguage: customer?.language ?? null, clinic: await loadPrintHeader(ctx) };
  },
};

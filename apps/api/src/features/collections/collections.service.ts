import { clinicToday } from '@odontia/shared/clinic-time';
import type {
  Collection,
  CollectionListItem,
  CollectionListQuery,
  CollectionPart,
  CreateCollection,
  CustomerOpenDocuments,
} from '@odontia/shared/schemas/collections';
import Big from 'big.js';
import type { RequestContext } from '../../context.ts';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  customerCollections,
  movementActions,
  presentPaymentFields,
  sidePayments,
} from '../commercial/side-payments.ts';
import * as accounts from '../current-accounts/customer-accounts.repository.ts';
import { findCustomer, resolveCustomer } from '../customers/customer-parties.ts';
import { recordCollection } from '../customers/record-collection.ts';
import { tagCollectionToPlan } from '../payment-plans/budget-plan-money.ts';
import { paymentPlansService } from '../payment-plans/payment-plans.service.ts';
import * as repository from './collections.repository.ts';

/**
 * Collections (cobranzas, issue 18; docs/decisions.md "Sales and collections"). A collection is
 * never edited: it is created through `recordCollection` (a `payment` credit of the customer's
 * account, allocated at once to open sales or left on account), its remainder is allocated later,
 * pending → paid is its only change of state, and a mistake is reversed with a reason (a
 * `payment_reversal` debit; its allocations are undone so the sales owe again).
 */

const shared = sidePayments(customerCollections, {
  party: repository.customerJoin,
  filters: (query: CollectionListQuery) => repository.collectionFilters(query),
  present: (row): CollectionListItem => ({
    ...presentPaymentFields(row),
    customerId: row.customerId as string,
    customerName: row.customerName ?? '',
    customerKind: row.customerKind ?? 'company',
    patientId: row.patientId,
    parts: (row.parts as { method: CollectionPart['method']; amount: string; transactionNumber?: string }[]).map(
      (part) => ({ method: part.method, amount: part.amount, transactionNumber: part.transactionNumber ?? null }),
    ),
  }),
  auditedBefore: (row) => ({
    number: row.number,
    customerId: row.customerId,
    date: row.date,
    amount: row.amount,
    method: row.method,
    parts: row.parts,
    status: row.status,
    allocatedAmount: row.allocatedAmount,
  }),
});

export const collectionsService = {
  ...movementActions(shared),

  async create({ ctx, input }: { ctx: RequestContext; input: CreateCollection }): Promise<Collection> {
    // A collection is money received: an inactive customer may still pay what it owes.
    const customer = await resolveCustomer(ctx, { customerId: input.customerId, patientId: input.patientId });
    const { id } = await recordCollection(ctx, {
      customer,
      date: input.date,
      amount: input.amount,
      currency: input.currency,
      // The contract asks for a method or parts; the row's method is then the largest part's.
      method: input.method ?? input.parts?.[0]?.method ?? 'cash_payment',
      transactionNumber: input.transactionNumber ?? null,
      ...(input.parts
        ? {
            parts: input.parts.map((part) => ({
              method: part.method,
              amount: part.amount,
              transactionNumber: part.transactionNumber ?? null,
            })),
          }
        : {}),
      notes: input.notes ?? null,
      status: input.status,
      paidOn: input.paidOn ?? null,
      allocations: input.allocations,
      registerId: input.registerId ?? null,
    });
    // Against a budget's payment plan: tagged to it, allocated to the budget's invoices if any (issue 40).
    if (input.paymentPlanId) {
      await tagCollectionToPlan(ctx, {
        planId: input.paymentPlanId,
        paymentId: id,
        customerId: customer.id,
        currency: input.currency,
        amount: input.amount,
      });
    }
    return shared.get({ ctx, id });
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
    const documents = await shared.openDocuments(ctx, customerId);
    return {
      customerId,
      name: customer.name,
      balance: new Big(account?.balance ?? 0).toFixed(2),
      onAccount: new Big(account?.credit_on_account ?? 0).plus(account?.unallocated ?? 0).toFixed(2),
      documents,
    };
  },

  /** What the receipt prints: the collection, the clinic, the customer's language. */
  async printable({ ctx, id }: { ctx: RequestContext; id: string }) {
    const collection = await shared.get({ ctx, id });
    const customer = await findCustomer(ctx, collection.customerId);
    return {
      collection,
      customerLanguage: customer?.language ?? null,
      clinic: await loadPrintHeader(ctx),
      instalments: await paymentPlansService.ofCollection({ ctx, paymentId: id }),
    };
  },
};

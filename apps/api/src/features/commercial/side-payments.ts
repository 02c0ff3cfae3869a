import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency, DocumentType, PaymentMethod } from '@odontia/shared/enums';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import type {
  AllocationInput,
  Payment,
  PaymentListItem,
  PaymentRegisterMovement,
} from '@odontia/shared/schemas/payments';
import Big from 'big.js';
import type { SQL } from 'drizzle-orm';
import type { RecordStep } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { registerTrailOfPayment } from '../cash-registers/cash-registers.repository.ts';
import {
  checkCollectionRegister,
  recordPaymentAtRegister,
  reversePaymentAtRegister,
} from '../cash-registers/register-movements.ts';
import { recordWebhookEvent } from '../webhooks/webhook-events.ts';
import { requireClinicCurrency } from './clinic-currency.ts';
import { type AllocationRequest, allocateToDocuments, postLedgerEntries, reversePaymentAllocations } from './ledger.ts';
import type { PartyJoin } from './party-join.ts';
import type { PaymentSide } from './payment-side.ts';
import * as repository from './side-payments.repository.ts';

/**
 * Money of one side of the `payments` table, written once for payments to providers (issue 17)
 * and collections from customers (issue 18): recorded (a ledger entry of its whole amount,
 * allocated at once to open documents or left on account), its remainder allocated later,
 * pending → paid its only change of state, a mistake reversed with a reason (the opposite entry;
 * its allocations are undone so the documents owe again). Never edited. What differs by side is
 * its descriptor (payment-side.ts); the party's lookup, its name and the list's filters stay in the domain.
 */

export const providerPayments: PaymentSide = {
  party: 'provider',
  documentSide: 'purchase',
  entity: 'payment',
  partyKey: 'providerId',
  entry: 'debit',
};

export const customerCollections: PaymentSide = {
  party: 'customer',
  documentSide: 'sale',
  entity: 'collection',
  partyKey: 'customerId',
  entry: 'credit',
};

type Ctx = Pick<RequestContext, 'tx' | 'accountId' | 'userId' | 'ip'>;
type PaymentFields = Omit<PaymentListItem, 'side' | 'providerId' | 'providerName'>;
type PresentedAllocation = Payment['allocations'][number];

/** The fields every payment and collection answers, whatever its side. */
export function presentPaymentFields(row: repository.PaymentRow & repository.PeopleNames): PaymentFields {
  const reversed = row.reversedAt !== null;
  return {
    id: row.id,
    number: row.number,
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
    ...presentStamps(row),
  };
}

function presentAllocation(row: repository.AllocationRow): PresentedAllocation {
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

const partyIdOf = (side: PaymentSide, row: repository.PaymentRow) => row[side.partyKey] as string;

/** The other ledger column: what undoes an entry. */
const opposite = (entry: PaymentSide['entry']) => (entry === 'debit' ? 'credit' : 'debit');

/** What a payment or a collection states, as the person at the desk enters it. */
export interface PaymentTerms {
  date: string;
  amount: string;
  currency: Currency;
  method: PaymentMethod;
  transactionNumber?: string | null;
  /**
   * How the money came when split (a collection of cash + card, issue 35); adds up to `amount`.
   * Without it the payment is one part: `method`, `amount`, `transactionNumber`.
   */
  parts?: readonly PaymentPart[];
  notes?: string | null;
  status: 'pending' | 'paid';
  paidOn?: string | null;
  allocations: AllocationRequest[];
  /** The cash register it is taken at (issue 40): one movement per part in its open session. */
  registerId?: string | null;
}

export interface RecordedPayment extends PaymentTerms {
  partyId: string;
  /** A patient customer's patient (collections). */
  patientId?: string | null;
  /** Takes the clinic's next number (OP-000001, RC-000001) from the side's counter. */
  takeNumber: () => Promise<string>;
  counterpartySnapshot: PartySnapshot;
}

export interface PaymentPart {
  method: PaymentMethod;
  amount: string;
  transactionNumber: string | null;
}

/**
 * The stored parts (amounts with two places) and the row's `method`: the largest part's, the first
 * of equals. 400 `parts_total_mismatch` on `parts` when they do not add up to the amount (the
 * contract says it first; `payments_parts` in the database last).
 */
function partsOf(input: RecordedPayment): { parts: PaymentPart[]; method: PaymentMethod } {
  const parts = (
    input.parts ?? [{ method: input.method, amount: input.amount, transactionNumber: input.transactionNumber ?? null }]
  ).map((part) => ({
    method: part.method,
    amount: new Big(part.amount).toFixed(2),
    transactionNumber: part.transactionNumber ?? null,
  }));
  const total = parts.reduce((sum, part) => sum.plus(part.amount), new Big(0));
  if (!total.eq(input.amount)) {
    throw new AppError('validation_error', { fields: [{ path: 'parts', code: 'parts_total_mismatch' }] });
  }
  const largest = parts.reduce((best, part) => (new Big(part.amount).gt(best.amount) ? part : best));
  return { parts, method: largest.method };
}

/**
 * Records money of the side, in the caller's transaction: the row, its allocations to open
 * documents of the same party and currency, the ledger entry of its whole amount on its date
 * (whatever its status: the order was given) and the audit event. 409 payment_over_allocation
 * before anything is written when the allocations add up to more than the amount.
 */
export async function recordPayment(
  ctx: Ctx,
  side: PaymentSide,
  input: RecordedPayment,
): Promise<{ id: string; number: string }> {
  await requireClinicCurrency(ctx, input.currency);
  const allocated = sumOf(input.allocations);
  if (allocated.gt(input.amount)) {
    throw new AppError('payment_over_allocation', { amount: input.amount, allocated: allocated.toFixed(2) });
  }
  const { parts, method } = partsOf(input);
  await checkCollectionRegister(ctx, side.party, input.registerId, parts);
  const id = newId();
  const number = await input.takeNumber();
  const amount = new Big(input.amount).toFixed(2);
  const paidOn = input.status === 'paid' ? (input.paidOn ?? input.date) : null;
  const auditPayment = recordAudit(side.entity);
  await repository.insertPayment(ctx, side, {
    id,
    number,
    [side.partyKey]: input.partyId,
    ...(input.patientId !== undefined ? { patientId: input.patientId } : {}),
    date: input.date,
    amount,
    currency: input.currency,
    method,
    transactionNumber: input.transactionNumber ?? null,
    parts: parts.map((part) => (part.transactionNumber ? part : { method: part.method, amount: part.amount })),
    notes: input.notes ?? null,
    status: input.status,
    paidOn,
    allocatedAmount: allocated.toFixed(2),
    counterpartySnapshot: input.counterpartySnapshot,
  });
  await allocateToDocuments(
    ctx,
    { paymentId: id, side: side.documentSide, partyId: input.partyId, currency: input.currency },
    input.allocations,
  );
  await postLedgerEntries(ctx, [
    {
      partyKind: side.party,
      partyId: input.partyId,
      date: input.date,
      kind: 'payment',
      paymentId: id,
      description: number,
      [side.entry]: amount,
    },
  ]);
  const atRegister = input.registerId
    ? await recordPaymentAtRegister(ctx, {
        side: side.party,
        registerId: input.registerId,
        paymentId: id,
        number,
        parts,
      })
    : null;
  await auditPayment(ctx, id, 'created', {
    after: {
      ...(atRegister ? { registerId: input.registerId, cashSessionId: atRegister.sessionId } : {}),
      number,
      [side.partyKey]: input.partyId,
      date: input.date,
      amount,
      currency: input.currency,
      method,
      transactionNumber: input.transactionNumber ?? null,
      ...(parts.length > 1 ? { parts } : {}),
      status: input.status,
      paidOn,
      allocations: input.allocations,
    },
  });
  if (side.party === 'customer') {
    await recordWebhookEvent(ctx, 'collection.recorded', {
      collectionId: id,
      number,
      customerId: input.partyId,
      patientId: input.patientId ?? null,
      date: input.date,
      amount,
      currency: input.currency,
      method,
      status: input.status,
    });
  }
  return { id, number };
}

type ListQuery<TParty> = repository.PaymentListRequest<TParty>['query'];

export interface SidePaymentsOptions<TParty, TItem, TQuery extends ListQuery<TParty>> {
  /** The party joined for its name (and kind…). */
  party: PartyJoin<TParty>;
  /** The list's own filters (the shared list adds status, dates and the search). */
  filters: (query: TQuery) => (SQL | undefined)[];
  /** The answer of one row: the shared fields and the side's own. */
  present: (row: repository.PaymentWithNames<TParty>) => TItem;
  /** What the reversal's audit event keeps of the row before. */
  auditedBefore: (row: repository.PaymentRow) => Record<string, unknown>;
}

/**
 * The reads and changes of state of one side's payments, answered as `present` says: get (with
 * allocations and the copied counterparty), list, allocate, reverse, mark paid.
 */
export function sidePayments<TParty, TItem, TQuery extends ListQuery<TParty>>(
  side: PaymentSide,
  { party, filters, present, auditedBefore }: SidePaymentsOptions<TParty, TItem, TQuery>,
) {
  type Answer = TItem & {
    allocations: PresentedAllocation[];
    counterpartySnapshot: PartySnapshot | null;
    registerMovements: PaymentRegisterMovement[];
  };
  const auditPayment = recordAudit(side.entity);

  async function get(ctx: RequestContext, id: string): Promise<Answer> {
    const row = await repository.findPayment(ctx, side, party, id);
    if (!row) throw new AppError(`${side.entity}_not_found`);
    const allocations = await repository.allocationsOf(ctx, [id]);
    const trail = await registerTrailOfPayment(ctx, id);
    return {
      ...present(row),
      allocations: allocations.map(presentAllocation),
      registerMovements: trail.map((movement) => ({
        ...movement,
        amount: new Big(movement.amount).abs().toFixed(2),
      })),
      counterpartySnapshot: (row.counterpartySnapshot as PartySnapshot | null) ?? null,
    };
  }

  /** The row locked, at the version the client saw, not reversed. */
  async function lockCurrent(ctx: RequestContext, id: string, version: number) {
    const current = await repository.lockPayment(ctx, side, id);
    if (!current) throw new AppError(`${side.entity}_not_found`);
    if (current.version !== version) throw new AppError('version_conflict', { current: await get(ctx, id) });
    if (current.reversedAt) throw new AppError(`${side.entity}_already_reversed`);
    return current;
  }

  return {
    get: ({ ctx, id }: { ctx: RequestContext; id: string }) => get(ctx, id),

    async list({ ctx, query }: { ctx: RequestContext; query: TQuery }) {
      const { rows, total, totalIsLowerBound } = await repository.listPayments(ctx, side, {
        query,
        partyFilters: filters(query),
        party,
      });
      return {
        data: rows.map(present),
        total,
        ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    /** Allocates what is still on account to open documents of the same party and currency. */
    async allocate({
      ctx,
      id,
      input,
    }: RecordStep<{ version: number; allocations: AllocationInput[] }>): Promise<Answer> {
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
        { paymentId: id, side: side.documentSide, partyId: partyIdOf(side, current), currency: current.currency },
        input.allocations,
      );
      const allocatedAmount = allocating.plus(current.allocatedAmount).toFixed(2);
      await repository.updatePayment(ctx, id, { allocatedAmount });
      await auditPayment(ctx, id, 'allocated', {
        before: { allocatedAmount: current.allocatedAmount, version: current.version },
        after: { allocatedAmount, allocations: input.allocations, version: current.version + 1 },
      });
      return get(ctx, id);
    },

    /**
     * Reverses it: its allocations are undone (the documents owe again what it paid), the opposite
     * entry of the whole amount is posted on the clinic's today (never before its own date: a
     * scheduled one reversed early, so a closed period's ledger does not change), and it is marked
     * reversed with the reason. `allocated_amount` keeps what had been allocated (the allocations
     * stay listed, marked reversed); nothing of it is on account any more.
     */
    async reverse({ ctx, id, input }: RecordStep<{ version: number; reason: string }>): Promise<Answer> {
      const current = await lockCurrent(ctx, id, input.version);
      const undone = await reversePaymentAllocations(ctx, id);
      await reversePaymentAtRegister(ctx, { side: side.party, paymentId: id, reason: input.reason });
      await postLedgerEntries(ctx, [
        {
          partyKind: side.party,
          partyId: partyIdOf(side, current),
          date: [clinicToday(ctx.timeZone), current.date].sort().at(-1) as string,
          kind: 'payment_reversal',
          paymentId: id,
          description: input.reason,
          [opposite(side.entry)]: current.amount,
        },
      ]);
      await repository.updatePayment(ctx, id, {
        reversedAt: new Date(),
        reversedBy: ctx.userId,
        reversalReason: input.reason,
      });
      await auditPayment(ctx, id, 'reversed', {
        before: auditedBefore(current),
        after: { reason: input.reason, reallocatedToDocuments: undone, version: current.version + 1 },
      });
      return get(ctx, id);
    },

    /** pending → paid on `paidOn` (a transfer left or arrived, a cheque was cashed). */
    async markPaid({ ctx, id, input }: RecordStep<{ version: number; paidOn: string }>): Promise<Answer> {
      const current = await lockCurrent(ctx, id, input.version);
      if (current.status === 'paid') throw new AppError(`${side.entity}_already_paid`);
      await repository.updatePayment(ctx, id, { status: 'paid', paidOn: input.paidOn });
      await auditPayment(ctx, id, 'marked_paid', {
        before: { status: 'pending', paidOn: null, version: current.version },
        after: { status: 'paid', paidOn: input.paidOn, version: current.version + 1 },
      });
      return get(ctx, id);
    },

    /** The party's final documents with something still owed, oldest due first. */
    async openDocuments(ctx: RequestContext, partyId: string) {
      const rows = await repository.openDocumentsOf(ctx, side, partyId);
      return rows.map((row) => ({
        ...row,
        documentType: row.documentType as DocumentType,
        currency: row.currency as Currency,
      }));
    },
  };
}

type MovementActions = 'get' | 'list' | 'allocate' | 'reverse' | 'markPaid';

/** What either side's service answers as the shared engine does: read, list, allocate, reverse, mark paid. */
export function movementActions<T extends Record<MovementActions, unknown>>(shared: T): Pick<T, MovementActions> {
  const { get, list, allocate, reverse, markPaid } = shared;
  return { get, list, allocate, reverse, markPaid };
}

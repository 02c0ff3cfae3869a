import { z } from 'zod';
import { agingBuckets } from '../commercial.ts';
import { currencies, documentTypes } from '../enums.ts';
import { calendarDate } from '../validation.ts';
import { idSchema, listQuerySchema, pageSchema } from './common.ts';

/**
 * Current accounts (issue 17 providers, issue 18 customers): /api/current-accounts/providers.
 * A provider's balance is what the clinic owes it: the sum of its ledger (credits − debits). Aging
 * splits what is owed on open documents by days past the due date; `onAccount` is what was paid
 * (or credited) and not yet allocated. balance = Σ aging − onAccount, always.
 */

export const agingSchema = z.object(
  Object.fromEntries(agingBuckets.map((bucket) => [bucket, z.string()])) as {
    [Bucket in (typeof agingBuckets)[number]]: z.ZodString;
  },
);
export type Aging = z.infer<typeof agingSchema>;

export const providerAccountSchema = z.object({
  providerId: idSchema,
  name: z.string(),
  nif: z.string().nullable(),
  taxIdKind: z.string().nullable(),
  currency: z.enum(currencies),
  active: z.boolean(),
  balance: z.string(),
  /** Past due (every bucket but `current`). */
  overdue: z.string(),
  onAccount: z.string(),
  aging: agingSchema,
  lastMovementOn: z.string().nullable(),
});
export type ProviderAccount = z.infer<typeof providerAccountSchema>;

export const providerAccountSortColumns = ['name', 'balance', 'overdue'] as const;
export const providerAccountsQuerySchema = listQuerySchema(providerAccountSortColumns).extend({
  /** 'true': only providers with a balance other than zero. */
  withBalance: z.enum(['true', 'false']).optional(),
});
export type ProviderAccountsQuery = z.output<typeof providerAccountsQuerySchema>;
export const providerAccountsPageSchema = pageSchema(providerAccountSchema).extend({
  /** The totals of every provider that matches (not only this page). */
  totals: z.object({ balance: z.string(), overdue: z.string(), onAccount: z.string(), aging: agingSchema }),
});

export const ledgerQuerySchema = z
  .object({ startDate: calendarDate(), endDate: calendarDate() })
  .superRefine((value, ctx) => {
    if (value.endDate < value.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'end_before_start' });
  });
export type LedgerQuery = z.output<typeof ledgerQuerySchema>;

export const ledgerEntrySchema = z.object({
  id: idSchema,
  date: z.string(),
  kind: z.enum(['document', 'payment', 'payment_reversal']),
  documentId: z.string().nullable(),
  documentType: z.enum(documentTypes).nullable(),
  paymentId: z.string().nullable(),
  /** 'Factura 0001-00001234', 'Pago OP-000012': what the row is, in the clinic's words. */
  reference: z.string(),
  description: z.string(),
  dueDate: z.string().nullable(),
  debit: z.string(),
  credit: z.string(),
  /** The balance after this entry, the opening balance carried in. */
  balance: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const providerLedgerSchema = z.object({
  data: z.object({
    account: providerAccountSchema,
    startDate: z.string(),
    endDate: z.string(),
    openingBalance: z.string(),
    entries: z.array(ledgerEntrySchema),
    totals: z.object({ debit: z.string(), credit: z.string() }),
    closingBalance: z.string(),
  }),
});
export type ProviderLedger = z.infer<typeof providerLedgerSchema>['data'];

import { z } from 'zod';
import { dateText, moneyText } from '../api-schema.ts';
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
  Object.fromEntries(agingBuckets.map((bucket) => [bucket, moneyText()])) as {
    [Bucket in (typeof agingBuckets)[number]]: z.ZodString;
  },
);
export type Aging = z.infer<typeof agingSchema>;

/** What every party's account says after who the party is: its currency, state and figures. */
const accountFigures = {
  currency: z.enum(currencies),
  active: z.boolean(),
  balance: moneyText(),
  /** Past due (every bucket but `current`). */
  overdue: moneyText(),
  onAccount: moneyText(),
  aging: agingSchema,
  lastMovementOn: dateText().nullable(),
};

/** An accounts list's query: search, sort by name or figures, and 'true': only balances other than zero. */
export const accountSortColumns = ['name', 'balance', 'overdue'] as const;
const accountsQuerySchema = listQuerySchema(accountSortColumns).extend({
  withBalance: z.enum(['true', 'false']).optional(),
});

/** The totals of every party that matches (not only this page). */
const accountTotalsSchema = z.object({
  balance: moneyText(),
  overdue: moneyText(),
  onAccount: moneyText(),
  aging: agingSchema,
});

export const providerAccountSchema = z.object({
  providerId: idSchema,
  name: z.string(),
  nif: z.string().nullable(),
  taxIdKind: z.string().nullable(),
  ...accountFigures,
});
export type ProviderAccount = z.infer<typeof providerAccountSchema>;

export const providerAccountSortColumns = accountSortColumns;
export const providerAccountsQuerySchema = accountsQuerySchema;
export type ProviderAccountsQuery = z.output<typeof providerAccountsQuerySchema>;
export const providerAccountsPageSchema = pageSchema(providerAccountSchema).extend({ totals: accountTotalsSchema });

export const ledgerQuerySchema = z
  .object({ startDate: calendarDate(), endDate: calendarDate() })
  .superRefine((value, ctx) => {
    if (value.endDate < value.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'end_before_start' });
  });
export type LedgerQuery = z.output<typeof ledgerQuerySchema>;

export const ledgerEntrySchema = z.object({
  id: idSchema,
  date: dateText(),
  kind: z.enum(['document', 'payment', 'payment_reversal']),
  documentId: z.string().nullable(),
  documentType: z.enum(documentTypes).nullable(),
  paymentId: z.string().nullable(),
  /** 'Factura 0001-00001234', 'Pago OP-000012': what the row is, in the clinic's words. */
  reference: z.string(),
  description: z.string(),
  dueDate: dateText().nullable(),
  debit: moneyText(),
  credit: moneyText(),
  /** The balance after this entry, the opening balance carried in. */
  balance: moneyText(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** A party's ledger between two dates: the opening balance, its entries and totals, the closing balance. */
function ledgerSchema<Account extends z.ZodType>(account: Account) {
  return z.object({
    data: z.object({
      account,
      startDate: dateText(),
      endDate: dateText(),
      openingBalance: moneyText(),
      entries: z.array(ledgerEntrySchema),
      totals: z.object({ debit: moneyText(), credit: moneyText() }),
      closingBalance: moneyText(),
    }),
  });
}

export const providerLedgerSchema = ledgerSchema(providerAccountSchema);
export type ProviderLedger = z.infer<typeof providerLedgerSchema>['data'];

/**
 * Customers' current accounts (issue 18): /api/current-accounts/customers. A customer's balance is
 * what it owes the clinic: debits − credits of its ledger. Aging splits what is owed on issued
 * sales by days past their due date; `onAccount` is what it paid (or was credited) and is not yet
 * allocated. balance = Σ aging − onAccount, always.
 */
export const customerAccountSchema = z.object({
  customerId: idSchema,
  kind: z.enum(['patient', 'company', 'insurer']),
  patientId: z.string().nullable(),
  name: z.string(),
  taxId: z.string().nullable(),
  taxIdKind: z.string().nullable(),
  email: z.string().nullable(),
  language: z.string(),
  ...accountFigures,
});
export type CustomerAccount = z.infer<typeof customerAccountSchema>;

export const customerAccountSortColumns = accountSortColumns;
export const customerAccountsQuerySchema = accountsQuerySchema.extend({
  kind: z.enum(['patient', 'company', 'insurer']).optional(),
});
export type CustomerAccountsQuery = z.output<typeof customerAccountsQuerySchema>;
export const customerAccountsPageSchema = pageSchema(customerAccountSchema).extend({ totals: accountTotalsSchema });

export const customerLedgerSchema = ledgerSchema(customerAccountSchema);
export type CustomerLedger = z.infer<typeof customerLedgerSchema>['data'];

/** POST /api/current-accounts/customers/:customerId/statement/send: the statement PDF by e-mail. */
export const sendStatementSchema = z
  .object({ startDate: calendarDate(), endDate: calendarDate() })
  .superRefine((value, ctx) => {
    if (value.endDate < value.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'end_before_start' });
  });
export const sendStatementResponseSchema = z.object({
  data: z.object({ to: z.string() }),
  code: z.literal('statement_sent'),
});

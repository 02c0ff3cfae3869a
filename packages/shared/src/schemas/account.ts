import { z } from 'zod';
import { dateText, instantText, moneyText } from '../api-schema.ts';
import { type CalendarDay, clinicToday } from '../clinic-time.ts';
import { currencies } from '../currencies.ts';
import { optionalEmail, optionalText, requiredText, safeText } from '../validation.ts';
import { versionField } from './records.ts';

/**
 * "My account" (issue 19, spec §2): the clinic as Odontia's customer. Its commercial and billing
 * data, the plan it contracted (plans and their limits come from the installation's
 * configuration: PLANS / PLANS_FILE), its contract period and due date, the state that follows
 * from them (active, grace, read-only), renewals and the movements (charges, payments, renewal
 * orders) between the clinic and Odontia. Only `account.manage` (administrators) reads or edits it.
 */

/** A plan as the installation configures it. Limits: null is "no limit". */
export const planSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/),
  name: z.string().trim().min(1).max(80),
  /** Price per period, a decimal string with two decimals. */
  price: z
    .union([z.string(), z.number()])
    .transform((value) => String(value).trim())
    .refine((value) => /^\d{1,9}(\.\d{1,2})?$/.test(value))
    .transform((value) => {
      const [units = '0', cents = ''] = value.split('.');
      return `${BigInt(units)}.${cents.padEnd(2, '0')}`;
    }),
  currency: z.enum(currencies),
  /** Months one period (one renewal) covers. */
  periodMonths: z.number().int().min(1).max(36).default(1),
  limits: z
    .object({
      professionals: z.number().int().min(1).nullable().default(null),
      storageMb: z.number().int().min(1).nullable().default(null),
    })
    .default({ professionals: null, storageMb: null }),
});
export type Plan = z.output<typeof planSchema>;

/** A plan as the API answers it (already normalised). */
export const planAnswerSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: moneyText(),
  currency: z.enum(currencies),
  periodMonths: z.number().int(),
  limits: z.object({ professionals: z.number().int().nullable(), storageMb: z.number().int().nullable() }),
});

/** The installation's plans (PLANS / PLANS_FILE): an array, ids unique. */
export const plansConfigSchema = z
  .array(planSchema)
  .max(50)
  .refine((plans) => new Set(plans.map((plan) => plan.id)).size === plans.length, 'duplicate plan id');

export const accountStates = ['active', 'grace', 'read_only'] as const;
export type AccountState = (typeof accountStates)[number];

/**
 * The clinic's state on `at`: `active` until its due date (or always, with no due date — a
 * self-hosted installation — or when contracts are not enforced), `grace` for `graceDays` after
 * it, then `read_only`. A renewal ordered and not yet paid gives the clinic a new grace period
 * from the day it was ordered (renewing restores writing at once; the payment extends the contract).
 */
export function accountStateAt({
  endsAt,
  renewalRequestedAt,
  graceDays,
  enforced,
  at = new Date(),
}: {
  endsAt: Date | string | null;
  renewalRequestedAt: Date | string | null;
  graceDays: number;
  enforced: boolean;
  at?: Date;
}): AccountState {
  if (!enforced || endsAt === null) return 'active';
  const end = new Date(endsAt).getTime();
  const now = at.getTime();
  if (now < end) return 'active';
  const grace = graceDays * 86_400_000;
  if (now < end + grace) return 'grace';
  if (renewalRequestedAt !== null && now < new Date(renewalRequestedAt).getTime() + grace) return 'grace';
  return 'read_only';
}

/** When writing stops (the end of the grace period), or null when it never does. */
export function graceEndsAt(endsAt: Date | string | null, graceDays: number): string | null {
  if (endsAt === null) return null;
  return new Date(new Date(endsAt).getTime() + graceDays * 86_400_000).toISOString();
}

/** The calendar day `months` after `day` (the 31st of a shorter month is its last day). */
export function addMonths(day: CalendarDay, months: number): CalendarDay {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(date, last));
  return first.toISOString().slice(0, 10);
}

/** The clinic's due date as a calendar day in its time zone (the contract ends at its end). */
export function dueDay(endsAt: Date | string | null, timeZone: string): CalendarDay | null {
  if (endsAt === null) return null;
  // The contract ends at the start of the next day: the due date is the day before that instant.
  return clinicToday(timeZone, new Date(new Date(endsAt).getTime() - 1));
}

export const movementKinds = ['charge', 'payment', 'renewal_order'] as const;
export type MovementKind = (typeof movementKinds)[number];
export const movementStatuses = ['pending', 'paid', 'cancelled'] as const;
export type MovementStatus = (typeof movementStatuses)[number];

export const accountMovementSchema = z.object({
  id: z.uuid(),
  date: dateText(),
  kind: z.enum(movementKinds),
  plan: z.string().nullable(),
  periodStart: dateText().nullable(),
  periodEnd: dateText().nullable(),
  amount: moneyText(),
  currency: z.enum(currencies),
  status: z.enum(movementStatuses),
  reference: z.string(),
  /** The payment provider's adapter that took the order ('manual'). */
  provider: z.string().nullable(),
  paidAt: instantText().nullable(),
  createdAt: instantText(),
});
export type AccountMovement = z.infer<typeof accountMovementSchema>;

const billingFields = {
  /** Commercial data: the clinic's name and contact as given at sign-up. */
  clinicName: requiredText(120),
  contact: requiredText(120),
  /** Invoice Odontia's charges to the clinic's fiscal data (/settings/fiscal) instead of the fields below. */
  useFiscalData: z.boolean(),
  billingLegalName: optionalText(200),
  billingTaxId: optionalText(40),
  billingAddress: optionalText(200),
  billingCity: optionalText(120),
  billingPostalCode: optionalText(20),
  billingCountry: optionalText(2),
  /** Where Odontia sends invoices and renewal notices. */
  billingEmail: optionalEmail(),
  billingContact: optionalText(120),
};

/** PUT /api/account/billing: the commercial and billing data and the version it started from. */
export const updateAccountBillingSchema = z.object({ ...billingFields, version: versionField });
export type UpdateAccountBilling = z.output<typeof updateAccountBillingSchema>;

export const accountSchema = z.object({
  commercial: z.object({
    clinicName: z.string(),
    contact: z.string(),
    promotionalCode: z.string().nullable(),
  }),
  billing: z.object({
    useFiscalData: z.boolean(),
    billingLegalName: z.string().nullable(),
    billingTaxId: z.string().nullable(),
    billingAddress: z.string().nullable(),
    billingCity: z.string().nullable(),
    billingPostalCode: z.string().nullable(),
    billingCountry: z.string().nullable(),
    billingEmail: z.string().nullable(),
    billingContact: z.string().nullable(),
  }),
  /** The clinic's fiscal data, what is invoiced when `useFiscalData`. */
  fiscal: z.object({
    legalName: z.string().nullable(),
    taxId: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
  }),
  /** The contracted plan id (accounts.plan) and, when the installation configures it, the plan. */
  planId: z.string(),
  plan: planAnswerSchema.nullable(),
  /** The installation's plans (empty: self-hosted, no limits). */
  plans: z.array(planAnswerSchema),
  usage: z.object({ professionals: z.number().int(), storageMb: z.number() }),
  contract: z.object({
    startsAt: instantText().nullable(),
    /** The instant the contract ends; null: no end. */
    endsAt: instantText().nullable(),
    /** The due date (the contract's last day) in the clinic's time zone. */
    dueDate: dateText().nullable(),
    graceDays: z.number().int(),
    graceEndsAt: instantText().nullable(),
    state: z.enum(accountStates),
    /** A renewal ordered and not paid yet. */
    pendingRenewal: accountMovementSchema.nullable(),
    /** Where to transfer a renewal's payment, one item per line; null: the installation did not say. */
    transferDetails: z.string().nullable(),
  }),
  selfHosted: z.boolean(),
  updatedAt: instantText(),
  version: z.number().int(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountResponseSchema = z.object({
  data: accountSchema,
  code: z.literal('account_billing_updated').optional(),
});

export const accountMovementsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const accountMovementsPageSchema = z.object({
  data: z.array(accountMovementSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const accountMovementParamsSchema = z.object({ id: z.uuid() });

/** POST /api/account/renew: the plan to renew with (default: the contracted one). */
export const renewAccountSchema = z.object({
  plan: safeText().trim().max(40).optional(),
});
export type RenewAccount = z.output<typeof renewAccountSchema>;

export const renewAccountResponseSchema = z.object({
  data: z.object({ movement: accountMovementSchema, account: accountSchema }),
  code: z.literal('account_renewal_ordered'),
});

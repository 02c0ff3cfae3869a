import { z } from 'zod';
import { dateText, instantText, moneyText, named } from '../api-schema.ts';
import { paymentMethods } from '../enums.ts';
import { calendarDate, moneyAmount, optionalText, requiredText } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';
import { pageQuerySchema, recordContracts, recordStampsSchema, versionField } from './records.ts';

/**
 * Cash registers (cajas, issue 40): /api/cash-registers (the clinic's registers, written by
 * settings.manage), their sessions (/api/cash-sessions: open with a counted float, movements,
 * close with the count per method, the Z report) and the clinic's cash setting. Every write that
 * moves money (open, a manual movement, close) carries an `Idempotency-Key` header.
 */

export const cashRegisterKinds = ['front_desk', 'professional'] as const;
export type CashRegisterKind = (typeof cashRegisterKinds)[number];

/** What a manual movement is: money in with a reason, money out with a reason, cash taken to the bank. */
export const manualCashMovementKinds = ['income', 'expense', 'withdrawal'] as const;
export type ManualCashMovementKind = (typeof manualCashMovementKinds)[number];

export const cashMovementKindValues = [
  'opening',
  'collection',
  'payment',
  'collection_reversal',
  'payment_reversal',
  ...manualCashMovementKinds,
] as const;
export type CashMovementKind = (typeof cashMovementKindValues)[number];

/**
 * A session's largest amount: a register's figures are sums of numeric(14,2) movements kept as
 * numeric(20,2); a single typed amount (float, counted per method, a manual movement) stays in
 * what one money column holds.
 */
const cashAmount = () => moneyAmount();

const cashRegisterFields = {
  name: requiredText(80),
  kind: z.enum(cashRegisterKinds).default('front_desk'),
  /** The professional whose register it is (required for kind professional, none for the front desk). */
  professionalId: idSchema.nullish(),
  active: z.boolean().default(true),
};

export const cashRegisterSchema = named(
  'CashRegister',
  z.object({
    id: idSchema,
    name: z.string(),
    kind: z.enum(cashRegisterKinds),
    professionalId: z.string().nullable(),
    professionalName: z.string().nullable(),
    active: z.boolean(),
    ...recordStampsSchema,
  }),
);
export type CashRegister = z.infer<typeof cashRegisterSchema>;

export const cashRegisterContracts = recordContracts('cash_register', cashRegisterFields, cashRegisterSchema, {
  refine: (value, ctx) => {
    if (value.kind === 'professional' && !value.professionalId)
      ctx.addIssue({ code: 'custom', path: ['professionalId'], message: 'required' });
  },
});
export type CashRegisterInput = z.input<typeof cashRegisterContracts.create>;

/** GET/PUT /api/cash-registers/settings: the clinic's cash rule. */
export const cashSettingsSchema = z.object({
  /** A collection with a cash part needs an open session of the register it names. */
  cashNeedsOpenSession: z.boolean(),
  version: z.number().int(),
});
export type CashSettings = z.infer<typeof cashSettingsSchema>;
export const updateCashSettingsSchema = z.object({ cashNeedsOpenSession: z.boolean(), version: versionField });
export const cashSettingsResponseSchema = z.object({
  data: cashSettingsSchema,
  code: z.literal('cash_settings_updated').optional(),
});

export const cashMovementSchema = named(
  'CashMovement',
  z.object({
    id: idSchema,
    kind: z.enum(cashMovementKindValues),
    method: z.enum(paymentMethods),
    /** Signed: in (+) or out (−) of the register. */
    amount: moneyText(),
    paymentId: z.string().nullable(),
    description: z.string(),
    createdAt: instantText(),
    createdByName: z.string().nullable(),
  }),
);
export type CashMovement = z.infer<typeof cashMovementSchema>;

/** One method of a session: what the movements add up to and, once closed, what was counted. */
export const cashMethodTotalSchema = z.object({
  method: z.enum(paymentMethods),
  /** Money in (Σ of the positive movements) and out (Σ of the negative ones, as a positive amount). */
  income: moneyText(),
  outgo: moneyText(),
  expected: moneyText(),
  counted: moneyText().nullable(),
  difference: moneyText().nullable(),
});
export type CashMethodTotal = z.infer<typeof cashMethodTotalSchema>;

/** What a session's movements add up to by kind (the Z report's summary). */
export const cashKindTotalSchema = z.object({
  kind: z.enum(cashMovementKindValues),
  method: z.enum(paymentMethods),
  count: z.number().int(),
  amount: moneyText(),
});

export const cashSessionSchema = named(
  'CashSession',
  z.object({
    id: idSchema,
    registerId: idSchema,
    registerName: z.string(),
    status: z.enum(['open', 'closed']),
    /** The closing's number (Z-000001); null while open. */
    number: z.string().nullable(),
    openedAt: instantText(),
    openedByName: z.string().nullable(),
    openingFloat: moneyText(),
    carriedBalance: moneyText(),
    openingDifference: moneyText(),
    openingNotes: z.string().nullable(),
    closedAt: instantText().nullable(),
    closedByName: z.string().nullable(),
    closedOn: dateText().nullable(),
    expectedTotal: moneyText().nullable(),
    countedTotal: moneyText().nullable(),
    differenceTotal: moneyText().nullable(),
    cashLeft: moneyText().nullable(),
    explanation: z.string().nullable(),
    movementCount: z.number().int(),
    methods: z.array(cashMethodTotalSchema),
    version: z.number().int(),
  }),
);
export type CashSession = z.infer<typeof cashSessionSchema>;

export const cashSessionResponseSchema = z.object({
  data: cashSessionSchema,
  code: z.enum(['cash_session_opened', 'cash_session_closed', 'cash_movement_created']).optional(),
});

/** GET /api/cash-registers/:id/state: the register, its open session (if any) and what the next opening proposes. */
export const cashRegisterStateSchema = z.object({
  data: z.object({
    register: cashRegisterSchema,
    session: cashSessionSchema.nullable(),
    /** The cash the last closing left in the drawer: what the next opening proposes. */
    carriedBalance: moneyText(),
    lastClosing: z.object({ id: idSchema, number: z.string(), closedAt: instantText() }).nullable(),
  }),
});

/** The list of closings (and open sessions): by register, status and closing day. */
export const cashSessionListItemSchema = named(
  'CashSessionListItem',
  z.object({
    id: idSchema,
    registerId: idSchema,
    registerName: z.string(),
    status: z.enum(['open', 'closed']),
    number: z.string().nullable(),
    openedAt: instantText(),
    /** Who opened it: the forms default to the register the user has open. */
    openedById: idSchema,
    closedAt: instantText().nullable(),
    closedOn: dateText().nullable(),
    closedByName: z.string().nullable(),
    openingFloat: moneyText(),
    expectedTotal: moneyText().nullable(),
    countedTotal: moneyText().nullable(),
    differenceTotal: moneyText().nullable(),
    explanation: z.string().nullable(),
  }),
);
export type CashSessionListItem = z.infer<typeof cashSessionListItemSchema>;
export const cashSessionPageSchema = pageSchema(cashSessionListItemSchema);
export const cashSessionListQuerySchema = pageQuerySchema.extend({
  registerId: idSchema.optional(),
  status: z.enum(['open', 'closed']).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type CashSessionListQuery = z.output<typeof cashSessionListQuerySchema>;

export const cashMovementPageSchema = pageSchema(cashMovementSchema);

/** POST /api/cash-registers/:id/sessions: open with the cash counted in the drawer. */
export const openCashSessionSchema = z.object({
  openingFloat: cashAmount(),
  /** Why the float differs from what the last closing left (optional). */
  notes: optionalText(500),
});
export type OpenCashSession = z.input<typeof openCashSessionSchema>;

/** POST /api/cash-sessions/:id/movements: a manual income, expense or withdrawal to the bank, with its reason. */
export const createCashMovementSchema = z.object({
  kind: z.enum(manualCashMovementKinds),
  method: z.enum(paymentMethods).default('cash_payment'),
  amount: cashAmount().refine((value) => Number(value) > 0, 'too_small'),
  reason: requiredText(200),
});
export type CreateCashMovement = z.input<typeof createCashMovementSchema>;

/** POST /api/cash-sessions/:id/close: the amount counted per method; an explanation when any differs. */
export const closeCashSessionSchema = z.object({
  version: versionField,
  counted: z
    .array(z.object({ method: z.enum(paymentMethods), amount: cashAmount() }))
    .max(paymentMethods.length, 'too_big')
    .superRefine((value, ctx) => {
      const seen = new Set<string>();
      value.forEach((count, index) => {
        if (seen.has(count.method)) ctx.addIssue({ code: 'custom', path: [index, 'method'], message: 'invalid_value' });
        seen.add(count.method);
      });
    }),
  explanation: optionalText(1000),
});
export type CloseCashSession = z.input<typeof closeCashSessionSchema>;

export const cashSessionParamsSchema = z.object({ id: idSchema });

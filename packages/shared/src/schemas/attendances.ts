import { z } from 'zod';
import { refineAttendanceTotals } from '../amount-bounds.ts';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { attendanceGroups, attendanceTypes, fdiTeeth } from '../enums.ts';
import {
  instant,
  moneyAmount,
  optionalCalendarDate,
  optionalId,
  optionalText,
  requiredText,
  wholeNumber,
} from '../validation.ts';
import { professionalIdField } from './clinical.ts';
import { pageSchema } from './common.ts';
import { recordStampsSchema, versionField } from './records.ts';

/**
 * Attendances of the medical history (issue 5, spec §3 "Attendance"):
 * /api/patients/:patientId/attendances. Billing lines and totals are computed by the server with
 * decimals (line total = price × quantity; totalBillable = attendanceFee + Σ line totals). The
 * supplies and medications used are taken from stock in the same transaction as the attendance;
 * an edit moves only the difference, a delete returns them. A finished attendance is read-only:
 * corrections are dated addenda (POST …/:id/addenda).
 */

export const maxAttendanceQuantity = 100_000;

/** An instant with its offset ('2026-03-01T10:30:00-03:00' or 'Z'), answered in UTC; 1900–2999. */
export const dateTime = instant;

const knownTeeth = new Set(fdiTeeth.map(String));

/** One tooth in FDI notation ('16', '85'), as text; a number is accepted; empty becomes null. */
export const fdiToothField = () =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value),
    z
      .string('invalid_value')
      .refine((tooth) => tooth === '' || knownTeeth.has(tooth), 'invalid_value')
      .nullish()
      .transform((tooth) => (tooth ? tooth : null)),
  );

/**
 * A billing line: a product (optionally an inventory item, for reference) or a treatment of the
 * price list (issue 18), optionally on one tooth and carrying out a line of an accepted budget.
 * `id`: the line as answered by GET; an edit that sends a line unchanged with its id keeps its row
 * (what an invoice refers to). A changed or dropped line is retired and a new one written, which
 * an invoiced line refuses (409 attendance_line_invoiced, details.lineId).
 */
export const attendanceLineInputSchema = z.object({
  id: optionalId(),
  description: requiredText(200),
  /** An item of the clinic's catalogue (billing only: stock moves through supplies/medications). */
  itemId: z
    .uuid('invalid_value')
    .nullish()
    .transform((value) => value ?? null),
  /** A treatment of the price list (its description and price are what the form proposes). */
  treatmentId: optionalId(),
  tooth: fdiToothField(),
  /** The line of an accepted budget of the patient this line carries out. */
  budgetLineId: optionalId(),
  quantity: wholeNumber(1, maxAttendanceQuantity),
  price: moneyAmount(),
});

/** Each line id once (the second one is marked). */
const uniqueLineIds = (lines: { id: string | null }[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    if (line.id && seen.has(line.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'invalid_value' });
    if (line.id) seen.add(line.id);
  });
};

/** A supply or a medicine used, and how many units. */
export const attendanceItemInputSchema = z.object({
  itemId: z.uuid({ error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value') }),
  quantity: wholeNumber(1, maxAttendanceQuantity),
});

/** Each item once in its list (the second one is marked). */
const uniqueItems = (items: { itemId: string }[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.itemId)) ctx.addIssue({ code: 'custom', path: [index, 'itemId'], message: 'invalid_value' });
    seen.add(item.itemId);
  });
};

const attendanceFields = {
  date: dateTime(),
  attendanceType: z.enum(attendanceTypes, {
    error: (issue) => (issue.input == null ? 'required' : 'invalid_value'),
  }),
  specialization: optionalText(120),
  professionalId: professionalIdField,
  titleResume: requiredText(200),
  resume: optionalText(4000),
  detail: optionalText(20000),
  nextAppointment: optionalCalendarDate(),
  finished: z.boolean().default(false),
  resultDate: optionalCalendarDate(),
  result: optionalText(20000),
  billable: z.boolean().default(false),
  attendanceFee: z.preprocess((value) => value ?? '0', moneyAmount()),
  lines: z.array(attendanceLineInputSchema).max(100, 'too_big').default([]).superRefine(uniqueLineIds),
  /** Supplies (items of kind supply) used, taken from stock. */
  supplies: z.array(attendanceItemInputSchema).max(100, 'too_big').default([]).superRefine(uniqueItems),
  /** Medicines used (approved and active), taken from stock. */
  medications: z.array(attendanceItemInputSchema).max(100, 'too_big').default([]).superRefine(uniqueItems),
};

/**
 * POST /api/patients/:patientId/attendances. `appointmentId`: the attendance was started from
 * that appointment ("start attendance", issue 16), which is marked completed in the same
 * transaction (it must be the patient's — 404 appointment_not_found — and scheduled — 409
 * appointment_not_scheduled).
 */
export const createAttendanceRequestSchema = z
  .object({ ...attendanceFields, appointmentId: optionalId() })
  .superRefine(refineAttendanceTotals);
/** PUT /api/patients/:patientId/attendances/:id (409 attendance_finished once finished). */
export const updateAttendanceRequestSchema = z
  .object({ ...attendanceFields, version: versionField })
  .superRefine(refineAttendanceTotals);
export type CreateAttendanceRequest = z.input<typeof createAttendanceRequestSchema>;
export type UpdateAttendanceRequest = z.input<typeof updateAttendanceRequestSchema>;
export type AttendanceInput = z.output<typeof createAttendanceRequestSchema>;

/** POST …/attendances/:id/addenda: only on a finished attendance. */
export const createAddendumRequestSchema = z.object({ text: requiredText(4000) });
export type CreateAddendumRequest = z.input<typeof createAddendumRequestSchema>;

export const attendanceLineSchema = z.object({
  id: z.uuid(),
  description: z.string(),
  itemId: z.uuid().nullable(),
  treatmentId: z.uuid().nullable(),
  /** The treatment's code and name in the price list (null when free text). */
  treatmentCode: z.string().nullable(),
  treatmentName: z.string().nullable(),
  tooth: z.string().nullable(),
  budgetLineId: z.uuid().nullable(),
  quantity: z.number().int(),
  price: moneyText(),
  /** price × quantity, rounded half-up to cents. */
  total: moneyText(),
  /** Whether an issued invoice bills this line (it can no longer change). */
  invoiced: z.boolean(),
});

export const attendanceItemSchema = z.object({
  itemId: z.uuid(),
  name: z.string(),
  quantity: z.number().int(),
});

export const addendumSchema = z.object({
  id: z.uuid(),
  text: z.string(),
  createdAt: instantText(),
  userName: z.string().nullable(),
});
export type Addendum = z.infer<typeof addendumSchema>;

const attendanceSummaryFields = {
  id: z.uuid(),
  patientId: z.uuid(),
  /** The attendance's instant (not a calendar date). */
  date: instantText(),
  attendanceType: z.enum(attendanceTypes),
  attendanceGroup: z.enum(attendanceGroups),
  specialization: z.string().nullable(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  titleResume: z.string(),
  nextAppointment: z.string().nullable(),
  finished: z.boolean(),
  billable: z.boolean(),
  attendanceFee: moneyText(),
  /** attendanceFee + Σ line totals. */
  totalBillable: moneyText(),
  ...recordStampsSchema,
};

/** A row of the list (the lines, items and addenda come with GET …/:id). */
export const attendanceSummarySchema = z.object(attendanceSummaryFields);
export type AttendanceSummary = z.infer<typeof attendanceSummarySchema>;

export const attendanceSchema = named(
  'Attendance',
  z.object({
    ...attendanceSummaryFields,
    resume: z.string().nullable(),
    detail: z.string().nullable(),
    resultDate: dateText().nullable(),
    result: z.string().nullable(),
    lines: z.array(attendanceLineSchema),
    /** Whether an issued invoice bills the attendance's fee (then no line or the fee may change). */
    feeInvoiced: z.boolean(),
    supplies: z.array(attendanceItemSchema),
    medications: z.array(attendanceItemSchema),
    addenda: z.array(addendumSchema),
  }),
);
export type Attendance = z.infer<typeof attendanceSchema>;

/**
 * /api/patients/:patientId/attendances[/:id]: the list (newest first) shows summaries; one
 * attendance is also answered by POST …/:id/addenda (attendance_addendum_created).
 */
export const attendanceContracts = {
  name: 'attendance',
  create: createAttendanceRequestSchema,
  update: updateAttendanceRequestSchema,
  one: z.object({
    data: attendanceSchema,
    code: z.enum(['attendance_created', 'attendance_updated', 'attendance_addendum_created']).optional(),
  }),
  page: pageSchema(attendanceSummarySchema),
  /** DELETE …/attendances/:id: hidden from now on, the supplies and medicines back in stock. */
  deleted: z.object({ code: z.literal('attendance_deleted') }),
} as const;

/**
 * GET /api/attendances/recent (issue 16, the dashboard's "patients seen recently"): the clinic's
 * latest attendances across patients, newest first, at most 20 (patients.read).
 */
export const recentAttendancesQuerySchema = z.object({
  limit: wholeNumber(1, 20).default(8),
});
export type RecentAttendancesQuery = z.input<typeof recentAttendancesQuerySchema>;
export const recentAttendanceSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  patientName: z.string(),
  date: instantText(),
  attendanceType: z.enum(attendanceTypes),
  professionalId: z.uuid(),
  professionalName: z.string(),
  titleResume: z.string(),
});
export type RecentAttendance = z.infer<typeof recentAttendanceSchema>;
export const recentAttendancesResponseSchema = z.object({ data: z.array(recentAttendanceSchema) });

/**
 * GET /api/patients/:patientId/budget-lines (issue 18, patients.read): the lines of the patient's
 * accepted budgets still pending — done (Σ quantity of live attendance lines linking it) below
 * the quantity and not invoiced — for the attendance line's "carries out" select. With
 * `attendanceId`, that attendance's own lines are not counted as done and the lines it links are
 * answered even when complete (the form of an edit shows what is selected).
 */
export const budgetLinesQuerySchema = z.object({ attendanceId: optionalId() });
export type BudgetLinesQuery = z.input<typeof budgetLinesQuerySchema>;
export const pendingBudgetLineSchema = z.object({
  id: z.uuid(),
  budgetId: z.uuid(),
  /** '0001-00000123' (formatSaleNumber). */
  budgetNumber: z.string().nullable(),
  budgetDate: dateText(),
  description: z.string(),
  treatmentId: z.uuid().nullable(),
  treatmentCode: z.string().nullable(),
  tooth: z.string().nullable(),
  /** Budget quantity (a decimal string, '2.00'), and what attendances did of it ('1'). */
  quantity: decimalText(),
  done: z.string(),
  unitPrice: moneyText(),
});
export type PendingBudgetLine = z.infer<typeof pendingBudgetLineSchema>;
export const budgetLinesResponseSchema = z.object({ data: z.array(pendingBudgetLineSchema) });

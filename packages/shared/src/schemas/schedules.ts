import { z } from 'zod';
import { decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { type RecallUnit, recallUnits, scheduleExceptionKinds, weekdays } from '../enums.ts';
import { recallIntervalBounds, recallIntervalMax, recallMessageDaysMax } from '../recalls.ts';
import {
  blankAsNull,
  instant,
  moneyAmount,
  optionalHexColor,
  optionalId,
  optionalText,
  optionalWholeNumber,
  percentage,
  requiredText,
  safeText,
  tooBigIssue,
  wholeNumber,
} from '../validation.ts';
import { idSchema, importRowErrorSchema } from './common.ts';
import { recordContracts, recordStampsSchema } from './records.ts';

/**
 * Opening hours, professionals' schedules, their dated exceptions, chairs and treatments
 * (issue 16, spec §3 "Schedule"): what the agenda books against. /api/schedules, /api/chairs,
 * /api/treatments. Times of a week are wall-clock 'HH:MM' in the clinic's time zone.
 */

const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A wall-clock time 'HH:MM' (00:00–23:59). */
export const wallTime = () => safeText().trim().regex(timePattern, 'invalid_time');
const optionalWallTime = () => blankAsNull(wallTime());

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** One range of a weekday (spec §3 "Schedule"): opening, closing and an optional recess inside it. */
export const scheduleRangeSchema = z
  .object({
    weekday: z.enum(weekdays),
    opening: wallTime(),
    closing: wallTime(),
    recessStart: optionalWallTime(),
    recessEnd: optionalWallTime(),
  })
  .superRefine((range, ctx) => {
    if (minutesOf(range.closing) <= minutesOf(range.opening))
      ctx.addIssue({ code: 'custom', path: ['closing'], message: 'closing_before_opening' });
    if ((range.recessStart === null) !== (range.recessEnd === null))
      ctx.addIssue({ code: 'custom', path: [range.recessStart ? 'recessEnd' : 'recessStart'], message: 'required' });
    if (range.recessStart && range.recessEnd) {
      const start = minutesOf(range.recessStart);
      const end = minutesOf(range.recessEnd);
      if (end <= start) ctx.addIssue({ code: 'custom', path: ['recessEnd'], message: 'closing_before_opening' });
      else if (start <= minutesOf(range.opening) || end >= minutesOf(range.closing))
        ctx.addIssue({ code: 'custom', path: ['recessStart'], message: 'recess_outside_range' });
    }
  });
export type ScheduleRange = z.output<typeof scheduleRangeSchema>;

/** Ranges of one owner may not overlap on the same weekday (say which one, on its `opening`). */
function refineRanges(value: { ranges: ScheduleRange[] }, ctx: z.RefinementCtx) {
  value.ranges.forEach((range, index) => {
    const clash = value.ranges.some(
      (other, otherIndex) =>
        otherIndex < index &&
        other.weekday === range.weekday &&
        minutesOf(other.opening) < minutesOf(range.closing) &&
        minutesOf(range.opening) < minutesOf(other.closing),
    );
    if (clash) ctx.addIssue({ code: 'custom', path: ['ranges', index, 'opening'], message: 'ranges_overlap' });
  });
}

/** The week of the clinic (professionalId null: opening hours) or of one professional. */
export const scheduleSchema = z.object({
  id: z.uuid().nullable(),
  professionalId: z.uuid().nullable(),
  professionalName: z.string().nullable(),
  ranges: z.array(
    z.object({
      weekday: z.enum(weekdays),
      opening: z.string(),
      closing: z.string(),
      recessStart: z.string().nullable(),
      recessEnd: z.string().nullable(),
    }),
  ),
  /** 0 before the first save (the week is empty, or the professional follows the clinic's hours). */
  version: z.number().int().min(0),
  updatedAt: instantText().nullable(),
  updatedByName: z.string().nullable(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** GET /api/schedules: the clinic's opening hours and every professional's week. */
export const schedulesResponseSchema = z.object({ clinic: scheduleSchema, professionals: z.array(scheduleSchema) });
export type SchedulesResponse = z.infer<typeof schedulesResponseSchema>;

/**
 * PUT /api/schedules/clinic and /api/schedules/professionals/:professionalId: the whole week
 * at once. `version` 0 saves the first week; then the version read (409 when stale).
 * A professional with no ranges follows the clinic's opening hours.
 */
export const saveScheduleRequestSchema = z
  .object({ ranges: z.array(scheduleRangeSchema).max(70, 'too_big'), version: z.number().int().min(0) })
  .superRefine(refineRanges);
export type SaveScheduleRequest = z.input<typeof saveScheduleRequestSchema>;
export const scheduleAnswerSchema = z.object({ data: scheduleSchema, code: z.literal('entity_schedule_updated') });
export const professionalScheduleParamsSchema = z.object({ professionalId: idSchema });

const exceptionFields = {
  /** Null: the whole clinic (a holiday); else one professional (a vacation, a block). */
  professionalId: optionalId(),
  kind: z.enum(scheduleExceptionKinds),
  startsAt: instant(),
  endsAt: instant(),
  allDay: z.boolean().default(false),
  reason: optionalText(200),
};

export const scheduleExceptionSchema = z.object({
  id: z.uuid(),
  professionalId: z.uuid().nullable(),
  professionalName: z.string().nullable(),
  kind: z.enum(scheduleExceptionKinds),
  startsAt: instantText(),
  endsAt: instantText(),
  allDay: z.boolean(),
  reason: z.string().nullable(),
  ...recordStampsSchema,
});
export type ScheduleException = z.infer<typeof scheduleExceptionSchema>;

/** /api/schedule-exceptions[/:id]: holidays, vacations and blocks; the list by `from`/`to`. */
export const scheduleExceptionContracts = recordContracts(
  'schedule_exception',
  exceptionFields,
  scheduleExceptionSchema,
  {
    refine: (value, ctx) => {
      if (Date.parse(value.endsAt) <= Date.parse(value.startsAt))
        ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'end_before_start' });
      else if (Date.parse(value.endsAt) - Date.parse(value.startsAt) > 400 * 24 * 3_600_000)
        ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'too_big' });
    },
  },
);
export type CreateScheduleExceptionRequest = z.input<typeof scheduleExceptionContracts.create>;
export const scheduleExceptionsQuerySchema = z.object({
  from: instant().optional(),
  to: instant().optional(),
  professionalId: idSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

/**
 * A treatment is also the price list's entry (issue 18): its group (free text: Prevención,
 * Endodoncia…), price (clinic currency, 2 decimals) and VAT rate; blank price or rate is 0.
 */
const treatmentFields = {
  code: optionalText(20),
  name: requiredText(120),
  groupName: optionalText(60),
  price: z.preprocess((value) => (value == null || value === '' ? '0' : value), moneyAmount()),
  vatRate: z.preprocess((value) => (value == null || value === '' ? '0' : value), percentage()),
  durationMinutes: wholeNumber(5, 720),
  color: optionalHexColor(),
  active: z.boolean().default(true),
  /**
   * Recall rule (issue 38): "recall after" N days, weeks or months (both blank: none) and the
   * reason the recall says. Left out of a body (older clients, the CSV import), it stays as it is.
   */
  recallInterval: optionalWholeNumber(1, recallIntervalMax).optional(),
  recallUnit: z.preprocess((value) => (value === '' ? null : value), z.enum(recallUnits).nullish()),
  recallReason: optionalText(200).optional(),
  /**
   * Issue 40: what the laboratory charges per unit (a crown), deducted from a professional's
   * settlement when the rule says so; blank is 0. Left out of a body, it stays as it is.
   */
  labCost: z.preprocess((value) => (value === null || value === '' ? '0' : value), moneyAmount()).optional(),
};

/** A recall rule has both its interval and its unit, within the unit's bound, or neither. */
function checkRecallRule(
  value: { recallInterval?: number | null; recallUnit?: RecallUnit | null },
  ctx: z.RefinementCtx,
) {
  const interval = value.recallInterval ?? null;
  const unit = value.recallUnit ?? null;
  if (value.recallInterval === undefined && value.recallUnit === undefined) return;
  if (interval !== null && unit === null) ctx.addIssue({ code: 'custom', path: ['recallUnit'], message: 'required' });
  if (interval === null && unit !== null)
    ctx.addIssue({ code: 'custom', path: ['recallInterval'], message: 'required' });
  if (interval !== null && unit !== null && interval > recallIntervalBounds[unit])
    tooBigIssue(ctx, recallIntervalBounds[unit], ['recallInterval']);
}

export const treatmentSchema = named(
  'Treatment',
  z.object({
    id: z.uuid(),
    code: z.string().nullable(),
    name: z.string(),
    groupName: z.string().nullable(),
    /** Decimal strings: '1500.00', '21.00'. */
    price: moneyText(),
    vatRate: decimalText(),
    durationMinutes: z.number().int(),
    color: z.string().nullable(),
    active: z.boolean(),
    recallInterval: z.number().int().nullable(),
    recallUnit: z.enum(recallUnits).nullable(),
    recallReason: z.string().nullable(),
    labCost: moneyText(),
    ...recordStampsSchema,
  }),
);
export type Treatment = z.infer<typeof treatmentSchema>;
/** /api/treatments[/:id]: what the clinic does and its usual duration (issue 18 adds prices). */
export const treatmentContracts = recordContracts('treatment', treatmentFields, treatmentSchema, {
  refine: checkRecallRule,
});
export type CreateTreatmentRequest = z.input<typeof treatmentContracts.create>;
/** A column ascending, or descending with a leading '-'. */
export const treatmentSorts = ['name', '-name', 'code', '-code', 'group', '-group', 'price', '-price'] as const;
export type TreatmentSort = (typeof treatmentSorts)[number];
const treatmentFilters = {
  /** Words of the code, name or group, accent- and case-free, as you type. */
  q: safeText().trim().max(200, 'too_long').optional(),
  active: z.enum(['true', 'false']).optional(),
  /** One group exactly (as the list shows it). */
  group: safeText().trim().max(60, 'too_long').optional(),
  sort: z.enum(treatmentSorts).default('name'),
};
/** GET /api/treatments: the price list (and the agenda's treatments). */
export const treatmentsQuerySchema = z.object({
  ...treatmentFilters,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type TreatmentsQuery = z.input<typeof treatmentsQuerySchema>;
/** GET /api/treatments/export: the same search, filters and sort, every row, as CSV. */
export const treatmentsExportQuerySchema = z.object(treatmentFilters);
/** GET /api/treatments/groups: the groups in use, for the filter and the form. */
export const treatmentGroupsResponseSchema = z.object({ data: z.array(z.string()) });

/**
 * CSV columns of the price list, in export order, with the Spanish label the export writes; the
 * import accepts the label or the field name (any case, with or without accents).
 */
export const treatmentCsvColumns = [
  ['code', 'Código'],
  ['name', 'Nombre'],
  ['groupName', 'Grupo'],
  ['price', 'Precio'],
  ['vatRate', 'IVA (%)'],
  ['durationMinutes', 'Duración (min)'],
  ['active', 'Activo'],
] as const;
export const maxTreatmentImportRows = 2000;
/**
 * What POST /api/treatments/import (csvImportRequestSchema) answers. A row whose code matches a
 * treatment updates it, any other row creates one; all rows or none.
 */
export const treatmentImportResultSchema = z.object({
  total: z.number().int(),
  /** Rows without errors (nothing is written while any row has one). */
  valid: z.number().int(),
  errors: z.array(importRowErrorSchema),
  ignoredColumns: z.array(z.string()),
  preview: z.array(
    z.object({
      line: z.number().int(),
      code: z.string().nullable(),
      name: z.string(),
      price: moneyText(),
      action: z.enum(['create', 'update']),
    }),
  ),
  created: z.number().int(),
  updated: z.number().int(),
});
export type TreatmentImportResult = z.infer<typeof treatmentImportResultSchema>;
export const treatmentImportResponseSchema = z.object({
  data: treatmentImportResultSchema,
  code: z.literal('treatments_imported').optional(),
});

const chairFields = {
  name: requiredText(60),
  sortOrder: wholeNumber(0, 999).default(0),
  active: z.boolean().default(true),
};
export const chairSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  sortOrder: z.number().int(),
  active: z.boolean(),
  ...recordStampsSchema,
});
export type Chair = z.infer<typeof chairSchema>;
/** /api/chairs[/:id]: chairs (sillones) or boxes; each active one is a column of the calendar. */
export const chairContracts = recordContracts('chair', chairFields, chairSchema);
export type CreateChairRequest = z.input<typeof chairContracts.create>;

/** GET/PUT /api/schedules/reminders: the clinic's e-mail reminders (settings.manage to change). */
export const reminderSettingsSchema = z.object({
  remindersEnabled: z.boolean(),
  /** How long before the appointment, in minutes: 1 h to 7 days. */
  reminderLeadMinutes: wholeNumber(60, 7 * 24 * 60),
  /** The clinic's address and phone as the reminder prints them. */
  address: optionalText(300),
  phone: optionalText(40),
  /** Recalls (issue 38): an e-mail this many days before a recall is due; 0 = none. Left out: unchanged. */
  recallMessageDays: wholeNumber(0, recallMessageDaysMax).optional(),
});
export type ReminderSettings = z.output<typeof reminderSettingsSchema>;
export const saveReminderSettingsRequestSchema = reminderSettingsSchema;
/** The settings as answered (plain output types: an answer is not parsed, it is checked). */
export const reminderSettingsRecordSchema = z.object({
  remindersEnabled: z.boolean(),
  reminderLeadMinutes: z.number().int(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  recallMessageDays: z.number().int(),
});
export type StoredReminderSettings = z.infer<typeof reminderSettingsRecordSchema>;
export const reminderSettingsAnswerSchema = z.object({
  data: reminderSettingsRecordSchema,
  code: z.enum(['reminder_settings_updated', 'reminders_apply_to_new_bookings']).optional(),
});

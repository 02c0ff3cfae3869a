import { z } from 'zod';
import { dateText, instantText, named } from '../api-schema.ts';
import { calendarDate, optionalCalendarDate, optionalId, optionalText, requiredText } from '../validation.ts';
import { idSchema, maxPageSize, pageSchema } from './common.ts';
import { fdiTeethField } from './diagnoses.ts';
import { versionField } from './records.ts';

/**
 * Dental lab cases (issue 41): the crown, bridge, denture or aligners a dental laboratory (a
 * provider) makes for a patient. A case moves draft → sent → received → checked → seated; a
 * received or checked case may be returned for a remake (returned → sent again, the history kept);
 * any case not seated may be cancelled. Each step is an event (who, when, the step's date) and an
 * audit event. The case may name the appointment where it will be seated (the agenda warns when
 * it is not received by the day before) and the lab's invoice (a purchase of the same provider).
 * /api/lab-cases[/:id[/send|receive|check|return|seat|cancel]]: read with patients.read, written
 * with clinical.write.
 */

export const labWorkTypes = [
  'crown',
  'bridge',
  'veneer',
  'inlay_onlay',
  'implant_crown',
  'complete_denture',
  'partial_denture',
  'night_guard',
  'aligners',
  'retainer',
  'other',
] as const;
export type LabWorkType = (typeof labWorkTypes)[number];

export const labCaseStatuses = ['draft', 'sent', 'received', 'checked', 'returned', 'seated', 'cancelled'] as const;
export type LabCaseStatus = (typeof labCaseStatuses)[number];
/** Cases still in progress (the open list): neither seated nor cancelled. */
export const openLabCaseStatuses = ['draft', 'sent', 'received', 'checked', 'returned'] as const;
/** Cases not yet back from the lab: a seating appointment for one of them is at risk. */
export const notReceivedLabCaseStatuses = ['draft', 'sent', 'returned'] as const;

export const labCaseSteps = ['send', 'receive', 'check', 'return', 'seat', 'cancel'] as const;
export type LabCaseStep = (typeof labCaseSteps)[number];

/** Which step each state allows (the server refuses any other with 409 lab_case_transition_invalid). */
export const labCaseTransitions: Record<LabCaseStatus, readonly LabCaseStep[]> = {
  draft: ['send', 'cancel'],
  sent: ['receive', 'cancel'],
  received: ['check', 'return', 'cancel'],
  checked: ['seat', 'return', 'cancel'],
  returned: ['send', 'cancel'],
  seated: [],
  cancelled: [],
};

export const labCaseEventActions = [
  'created',
  'sent',
  'received',
  'checked',
  'returned',
  'seated',
  'cancelled',
] as const;
export type LabCaseEventAction = (typeof labCaseEventActions)[number];

/** The usual VITA classical shades, offered as suggestions (any other shade may be typed). */
export const vitaShades = [
  'A1',
  'A2',
  'A3',
  'A3.5',
  'A4',
  'B1',
  'B2',
  'B3',
  'B4',
  'C1',
  'C2',
  'C3',
  'C4',
  'D2',
  'D3',
  'D4',
] as const;

const labCaseFields = {
  patientId: idSchema,
  /** The dental laboratory: a provider of the clinic. */
  providerId: idSchema,
  workType: z.enum(labWorkTypes),
  teeth: fdiTeethField(),
  shade: optionalText(40),
  material: optionalText(120),
  /** What the lab is asked for (printed on the work order). */
  instructions: optionalText(2000),
  notes: optionalText(2000),
  /** When the lab should deliver it; set when it is sent, editable until it is received. */
  dueOn: optionalCalendarDate(),
  /** The appointment where it will be seated (the patient's). */
  appointmentId: optionalId(),
  /** The lab's invoice (a purchase of the same provider); one purchase may cover several cases. */
  purchaseId: optionalId(),
  /** The item of the patient's accepted treatment plan the work is for. */
  treatmentPlanItemId: optionalId(),
};

export const createLabCaseSchema = z.object(labCaseFields);
export type CreateLabCase = z.input<typeof createLabCaseSchema>;
export type LabCaseInput = z.output<typeof createLabCaseSchema>;

/** An edit: every field but the patient, with the version read. */
export const updateLabCaseSchema = z.object({ ...labCaseFields, version: versionField }).omit({ patientId: true });
export type UpdateLabCase = z.input<typeof updateLabCaseSchema>;
export type LabCaseEdit = z.output<typeof updateLabCaseSchema>;

function dueNotBeforeSent(value: { sentOn: string; dueOn: string }, ctx: z.RefinementCtx) {
  if (value.dueOn < value.sentOn) ctx.addIssue({ code: 'custom', path: ['dueOn'], message: 'due_before_date' });
}

/** The bodies of the steps; each carries the version read (409 version_conflict when stale). */
export const labCaseStepSchemas = {
  send: z
    .object({ version: versionField, sentOn: calendarDate(), dueOn: calendarDate() })
    .superRefine(dueNotBeforeSent),
  receive: z.object({ version: versionField, receivedOn: calendarDate() }),
  check: z.object({ version: versionField, checkedOn: calendarDate(), note: optionalText(500) }),
  return: z.object({ version: versionField, returnedOn: calendarDate(), reason: requiredText(500) }),
  seat: z.object({ version: versionField, seatedOn: calendarDate(), appointmentId: optionalId() }),
  cancel: z.object({ version: versionField, reason: requiredText(500) }),
} as const;
export type LabCaseStepBody<Step extends LabCaseStep> = z.input<(typeof labCaseStepSchemas)[Step]>;

export const labCaseEventSchema = z.object({
  id: idSchema,
  action: z.enum(labCaseEventActions),
  fromStatus: z.enum(labCaseStatuses).nullable(),
  toStatus: z.enum(labCaseStatuses),
  /** The step's own date (sent on, received on…). */
  onDate: dateText().nullable(),
  /** A send's due date. */
  dueOn: dateText().nullable(),
  reason: z.string().nullable(),
  at: instantText(),
  byName: z.string().nullable(),
});
export type LabCaseEvent = z.infer<typeof labCaseEventSchema>;

export const labCaseSchema = named(
  'LabCase',
  z.object({
    id: idSchema,
    patientId: idSchema,
    patientName: z.string(),
    providerId: idSchema,
    providerName: z.string(),
    workType: z.enum(labWorkTypes),
    teeth: z.array(z.number().int()),
    shade: z.string().nullable(),
    material: z.string().nullable(),
    instructions: z.string().nullable(),
    notes: z.string().nullable(),
    status: z.enum(labCaseStatuses),
    sentOn: dateText().nullable(),
    dueOn: dateText().nullable(),
    receivedOn: dateText().nullable(),
    checkedOn: dateText().nullable(),
    seatedOn: dateText().nullable(),
    /** How many times it was returned for a remake. */
    remakeCount: z.number().int(),
    returnReason: z.string().nullable(),
    cancelReason: z.string().nullable(),
    appointmentId: idSchema.nullable(),
    appointmentStartsAt: instantText().nullable(),
    purchaseId: idSchema.nullable(),
    purchaseNumber: z.string().nullable(),
    treatmentPlanItemId: idSchema.nullable(),
    /** The plan item as the plan shows it ("Corona de porcelana · 36"). */
    treatmentPlanItemLabel: z.string().nullable(),
    /** Sent and past its due date (the clinic's today) without being received. */
    overdue: z.boolean(),
    /** Its seating appointment is due and it will not be (or is not) back by the day before. */
    seatingWarning: z.boolean(),
    /** Overdue or with a seating warning: the open list marks it. */
    atRisk: z.boolean(),
    createdAt: instantText(),
    createdByName: z.string().nullable(),
    updatedAt: instantText(),
    updatedByName: z.string().nullable(),
    version: z.number().int(),
  }),
);
export type LabCase = z.infer<typeof labCaseSchema>;

export const labCaseDetailSchema = labCaseSchema.extend({ events: z.array(labCaseEventSchema) });
export type LabCaseDetail = z.infer<typeof labCaseDetailSchema>;

export const labCaseSuccessCodes = [
  'lab_case_created',
  'lab_case_updated',
  'lab_case_sent',
  'lab_case_received',
  'lab_case_checked',
  'lab_case_returned',
  'lab_case_seated',
  'lab_case_cancelled',
] as const;

export const labCaseAnswerSchema = z.object({
  data: labCaseDetailSchema,
  code: z.enum(labCaseSuccessCodes).optional(),
});

/**
 * GET /api/lab-cases: by default the open cases, soonest due first (no due date last); `status`
 * one state; `overdue=true` only the sent ones past due; by lab, patient, seating appointment or
 * invoice (those three list every state).
 */
export const labCasesQuerySchema = z.object({
  status: z.enum(labCaseStatuses).optional(),
  overdue: z.enum(['true', 'false']).optional(),
  providerId: idSchema.optional(),
  patientId: idSchema.optional(),
  appointmentId: idSchema.optional(),
  purchaseId: idSchema.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(25),
});
export type LabCasesQuery = z.input<typeof labCasesQuerySchema>;
export const labCasePageSchema = pageSchema(labCaseSchema);

/**
 * GET /api/patients/:patientId/lab-case-plan-items: the items of the patient's accepted treatment
 * plans (their live alternative) a lab case may be for, in the plan's order.
 */
export const labCasePlanItemSchema = named(
  'LabCasePlanItem',
  z.object({
    id: idSchema,
    planId: idSchema,
    planTitle: z.string(),
    description: z.string(),
    tooth: z.number().int().nullable(),
    label: z.string(),
  }),
);
export type LabCasePlanItem = z.infer<typeof labCasePlanItemSchema>;
export const labCasePlanItemsSchema = z.object({ data: z.array(labCasePlanItemSchema) });

import { z } from 'zod';
import { dateText } from '../api-schema.ts';
import { laboratoryStatuses, laboratoryStudies } from '../enums.ts';
import { calendarDate, optionalCalendarDate, optionalText, requiredText } from '../validation.ts';
import { professionalIdField } from './clinical.ts';
import { recordContracts, recordStampsSchema } from './records.ts';

/**
 * Laboratory orders and their results (issue 5): /api/patients/:patientId/laboratories. The
 * studies are the spec's laboratory and imaging attendance types; GET …/:id/order.pdf prints the
 * order for the patient to take to the laboratory.
 */

const laboratoryFields = {
  orderDate: calendarDate(),
  professionalId: professionalIdField,
  /** The laboratory or imaging centre that will do the studies. */
  laboratoryName: requiredText(160),
  /** At least one; each once. */
  studies: z
    .array(z.enum(laboratoryStudies))
    .min(1, 'required')
    .max(laboratoryStudies.length, 'too_big')
    .refine((studies) => new Set(studies).size === studies.length, 'invalid_value'),
  /** Printed on the order (fasting, preparation…). */
  instructions: optionalText(2000),
  /** Internal notes, not printed. */
  notes: optionalText(4000),
  status: z.enum(laboratoryStatuses).default('ordered'),
  /** Required once the result is received; never before the order date. */
  resultDate: optionalCalendarDate(),
  result: optionalText(20000),
};

type LaboratoryDates = { orderDate: string; status: string; resultDate: string | null };

function checkResult(value: LaboratoryDates, ctx: z.RefinementCtx) {
  if (value.status === 'result_received' && !value.resultDate) {
    ctx.addIssue({ code: 'custom', path: ['resultDate'], message: 'required' });
  }
  if (value.resultDate && value.resultDate < value.orderDate) {
    ctx.addIssue({ code: 'custom', path: ['resultDate'], message: 'date_before_order' });
  }
}

export const laboratorySchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  orderDate: dateText(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  laboratoryName: z.string(),
  studies: z.array(z.enum(laboratoryStudies)),
  instructions: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(laboratoryStatuses),
  resultDate: dateText().nullable(),
  result: z.string().nullable(),
  ...recordStampsSchema,
});
export type Laboratory = z.infer<typeof laboratorySchema>;

/** /api/patients/:patientId/laboratories[/:id]: the list is newest order first. */
export const laboratoryContracts = recordContracts('laboratory', laboratoryFields, laboratorySchema, {
  refine: checkResult,
});
export const createLaboratoryRequestSchema = laboratoryContracts.create;
export const updateLaboratoryRequestSchema = laboratoryContracts.update;
export type CreateLaboratoryRequest = z.input<typeof createLaboratoryRequestSchema>;
export type UpdateLaboratoryRequest = z.input<typeof updateLaboratoryRequestSchema>;
export type LaboratoryInput = z.output<typeof createLaboratoryRequestSchema>;

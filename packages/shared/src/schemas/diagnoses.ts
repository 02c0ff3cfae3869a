import { z } from 'zod';
import { dateText, named } from '../api-schema.ts';
import { diagnosisStatuses, fdiTeeth } from '../enums.ts';
import { calendarDate, optionalText, requiredText, safeText } from '../validation.ts';
import { professionalIdField } from './clinical.ts';
import { recordContracts, recordStampsSchema } from './records.ts';

/**
 * Diagnoses of the medical history (issue 5): /api/patients/:patientId/diagnoses. The spec leaves
 * the fields open; these are what a clinician expects. Never physically deleted.
 */

const icd10Pattern = /^[A-Z][0-9]{2}(\.[0-9A-Z]{1,4})?$/;
const knownTeeth = new Set(fdiTeeth);

/** An ICD-10 (CIE-10) code such as K02.1 or A00: upper-cased; empty becomes null. */
export const icd10Code = () =>
  safeText()
    .trim()
    .max(10, 'too_long')
    .transform((value) => value.toUpperCase())
    .refine((value) => value === '' || icd10Pattern.test(value), 'invalid_format')
    .nullish()
    .transform((value) => (value ? value : null));

/** Teeth concerned, FDI numbers (11–48 permanent, 51–85 primary), each once, sorted. */
export const fdiTeethField = () =>
  z
    .array(
      z
        .number()
        .int('invalid_value')
        .refine((tooth) => knownTeeth.has(tooth), 'invalid_value'),
    )
    .max(52, 'too_big')
    .refine((teeth) => new Set(teeth).size === teeth.length, 'invalid_value')
    .default([])
    .transform((teeth) => [...teeth].sort((a, b) => a - b));

const diagnosisFields = {
  date: calendarDate(),
  professionalId: professionalIdField,
  text: requiredText(2000),
  icd10Code: icd10Code(),
  teeth: fdiTeethField(),
  status: z.enum(diagnosisStatuses).default('active'),
  notes: optionalText(4000),
};

export const diagnosisSchema = named(
  'Diagnosis',
  z.object({
    id: z.uuid(),
    patientId: z.uuid(),
    date: dateText(),
    professionalId: z.uuid(),
    professionalName: z.string(),
    text: z.string(),
    icd10Code: z.string().nullable(),
    teeth: z.array(z.number().int()),
    status: z.enum(diagnosisStatuses),
    notes: z.string().nullable(),
    ...recordStampsSchema,
  }),
);
export type Diagnosis = z.infer<typeof diagnosisSchema>;

/** /api/patients/:patientId/diagnoses[/:id]: the list is newest first (date, then creation). */
export const diagnosisContracts = recordContracts('diagnosis', diagnosisFields, diagnosisSchema);
export const createDiagnosisRequestSchema = diagnosisContracts.create;
export const updateDiagnosisRequestSchema = diagnosisContracts.update;
export type CreateDiagnosisRequest = z.input<typeof createDiagnosisRequestSchema>;
export type UpdateDiagnosisRequest = z.input<typeof updateDiagnosisRequestSchema>;
export type DiagnosisInput = z.output<typeof createDiagnosisRequestSchema>;

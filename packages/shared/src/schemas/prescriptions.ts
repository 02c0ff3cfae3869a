import { z } from 'zod';
import { dateText, named } from '../api-schema.ts';
import { calendarDate, optionalId, optionalText, requiredText } from '../validation.ts';
import { professionalIdField, signingProfessionalFields } from './clinical.ts';
import { byCodeParamsSchema, byCodeResponseSchema, recordContracts, recordStampsSchema } from './records.ts';

/**
 * Prescriptions of the medical history (issue 6): /api/patients/:patientId/prescriptions. The
 * professional's name, licence and specialty are copied when the prescription is written; each
 * line is a medicine of the clinic's catalogue (approved and active: else 409
 * medication_not_prescribable) or free text. GET …/:id/pdf prints it in the patient's language with
 * its verification code; GET /api/prescriptions/by-code/:code finds it by that code.
 */

export const maxPrescriptionLines = 20;

export const prescriptionLineInputSchema = z.object({
  /** A medicine of the catalogue (its name is copied into `medicine`); null = written as free text. */
  medicationId: optionalId(),
  /** The free text; with a catalogue medicine, ignored (the catalogue's name is printed). */
  medicine: requiredText(200),
  dose: optionalText(120),
  frequency: optionalText(120),
  duration: optionalText(120),
  quantity: optionalText(60),
  instructions: optionalText(1000),
});
export type PrescriptionLineInput = z.output<typeof prescriptionLineInputSchema>;

const prescriptionFields = {
  date: calendarDate(),
  professionalId: professionalIdField,
  diagnosis: optionalText(1000),
  /** Internal notes, not printed. */
  notes: optionalText(4000),
  /** One of this patient's attendances (400 invalid_value on `attendanceId` otherwise). */
  attendanceId: optionalId(),
  lines: z.array(prescriptionLineInputSchema).min(1, 'required').max(maxPrescriptionLines, 'too_big'),
};

export const prescriptionLineSchema = z.object({
  id: z.uuid(),
  position: z.number().int(),
  medicationId: z.uuid().nullable(),
  medicine: z.string(),
  dose: z.string().nullable(),
  frequency: z.string().nullable(),
  duration: z.string().nullable(),
  quantity: z.string().nullable(),
  instructions: z.string().nullable(),
});
export type PrescriptionLine = z.infer<typeof prescriptionLineSchema>;

export const prescriptionSchema = named(
  'Prescription',
  z.object({
    id: z.uuid(),
    patientId: z.uuid(),
    date: dateText(),
    ...signingProfessionalFields,
    diagnosis: z.string().nullable(),
    notes: z.string().nullable(),
    attendanceId: z.uuid().nullable(),
    verificationCode: z.string(),
    lines: z.array(prescriptionLineSchema),
    ...recordStampsSchema,
  }),
);
export type Prescription = z.infer<typeof prescriptionSchema>;

/** /api/patients/:patientId/prescriptions[/:id]: the list is newest first (date, then id). */
export const prescriptionContracts = recordContracts('prescription', prescriptionFields, prescriptionSchema);
export const createPrescriptionRequestSchema = prescriptionContracts.create;
export const updatePrescriptionRequestSchema = prescriptionContracts.update;
export type CreatePrescriptionRequest = z.input<typeof createPrescriptionRequestSchema>;
export type UpdatePrescriptionRequest = z.input<typeof updatePrescriptionRequestSchema>;
export type PrescriptionInput = z.output<typeof createPrescriptionRequestSchema>;

/** 'RX-' and two groups of four letters and digits, without the ambiguous 0/O, 1/I/L. */
export const verificationCodeAlphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const verificationCodePattern = /^RX-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

/** GET /api/prescriptions/by-code/:code (upper-cased, spaces trimmed). */
export const prescriptionByCodeParamsSchema = byCodeParamsSchema(verificationCodePattern);
/** What the front desk sees when a pharmacy reads out a code: the prescription and its patient. */
export const prescriptionByCodeResponseSchema = byCodeResponseSchema(prescriptionSchema);
export type PrescriptionByCode = z.infer<typeof prescriptionByCodeResponseSchema>['data'];

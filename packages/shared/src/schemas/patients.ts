import { z } from 'zod';
import { dateText, instantText, named } from '../api-schema.ts';
import { latestDayOnEarth } from '../clinic-time.ts';
import { languages, sexes } from '../enums.ts';
import {
  calendarDate,
  optionalCalendarDate,
  optionalEmail,
  optionalPhone,
  optionalText,
  phoneArea,
  requiredText,
} from '../validation.ts';
import { listQuerySchema, pageSchema } from './common.ts';
import { recordStampsSchema } from './records.ts';

/**
 * Patients (issue 5, spec §3 "Patient"): /api/patients. `skuPatient` is assigned by the clinic's
 * counter (P-000123); `age` is computed from `birthdate`. A patient is never physically deleted:
 * "delete" hides them everywhere and the audit keeps everything.
 */

/** A calendar date 'YYYY-MM-DD' that exists, 1900–2999 (the shared rule; kept here for its importers). */

/**
 * A birthdate: a real date, not before 1900, not in the future. "The future" starts after the
 * clinic's today (`clinicToday` of its time zone), which only the caller knows: the contract used
 * before the clinic is known (the route) bounds it by the latest date on Earth, and the service
 * and the form check it again with the clinic's today (`patientRequestSchemas`).
 */
const birthdate = (today: () => string) => calendarDate({ latest: today });

const patientFields = {
  firstName: requiredText(80),
  lastName: requiredText(80),
  email: optionalEmail(),
  phoneArea: phoneArea(),
  phone: optionalPhone(),
  /** Not chosen yet: 'required', like the text fields (a select left empty). */
  sex: z.enum(sexes, { error: (issue) => (issue.input == null ? 'required' : 'invalid_value') }),
  birthdate: birthdate(latestDayOnEarth),
  /** National ID number (DNI, NIE, CPF…); unique in the clinic when given (409 duplicate_ssn). */
  ssn: optionalText(30),
  /** The clinic's own record number (historia clínica). */
  medicalHistory: optionalText(40),
  active: z.boolean().default(true),
  /** The day the patient died: no message is sent to a deceased patient (issue 38). */
  deceasedOn: optionalCalendarDate().default(null),
  street: optionalText(160),
  complement: optionalText(80),
  zipCode: optionalText(20),
  country: optionalText(80),
  state: optionalText(80),
  city: optionalText(80),
  district: optionalText(80),
  address: optionalText(240),
  /** Internal notes, never printed for the patient. */
  obs: optionalText(4000),
  // Clinical alerts: shown as a banner on every clinical screen of the patient.
  allergies: optionalText(1000),
  chronicConditions: optionalText(1000),
  currentMedication: optionalText(1000),
  /** The language of the documents printed for the patient (prescriptions, consents). */
  language: z.enum(languages).default('es'),
};

/** POST /api/patients: without a language, the patient gets the clinic's default language (system settings). */
const newPatientFields = { ...patientFields, language: z.enum(languages).optional() };
export const createPatientRequestSchema = z.object(newPatientFields);
/** PUT /api/patients/:patientId (the version the edit started from: 409 version_conflict when stale). */
export const updatePatientRequestSchema = z.object({ ...patientFields, version: z.number().int().min(1) });

/** The patient contracts of one clinic: a birthdate after the clinic's today is `date_in_future`. */
export function patientRequestSchemas(clinicToday: () => string) {
  const fields = { ...patientFields, birthdate: birthdate(clinicToday) };
  return {
    create: z.object({ ...newPatientFields, birthdate: birthdate(clinicToday) }),
    update: z.object({ ...fields, version: z.number().int().min(1) }),
  };
}
export type CreatePatientRequest = z.input<typeof createPatientRequestSchema>;
export type UpdatePatientRequest = z.input<typeof updatePatientRequestSchema>;
export type PatientInput = Omit<z.output<typeof updatePatientRequestSchema>, 'version'>;
export type NewPatientInput = z.output<typeof createPatientRequestSchema>;

/**
 * The patient of an agenda row (an appointment, a waiting-list entry): who, a phone to call and
 * whether an e-mail can reach them.
 */
export const patientContactFields = {
  patientId: z.uuid(),
  patientName: z.string(),
  patientPhone: z.string().nullable(),
  /** Whether the patient has an e-mail address, so a reminder or an offer can go out. */
  patientHasEmail: z.boolean(),
};

export const patientSchema = named(
  'Patient',
  z.object({
    id: z.uuid(),
    skuPatient: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phoneArea: z.string().nullable(),
    phone: z.string().nullable(),
    sex: z.enum(sexes),
    birthdate: dateText(),
    /** Whole years today, in the clinic's time zone. */
    age: z.number().int(),
    ssn: z.string().nullable(),
    medicalHistory: z.string().nullable(),
    active: z.boolean(),
    deceasedOn: dateText().nullable(),
    street: z.string().nullable(),
    complement: z.string().nullable(),
    zipCode: z.string().nullable(),
    country: z.string().nullable(),
    state: z.string().nullable(),
    city: z.string().nullable(),
    district: z.string().nullable(),
    address: z.string().nullable(),
    obs: z.string().nullable(),
    allergies: z.string().nullable(),
    chronicConditions: z.string().nullable(),
    currentMedication: z.string().nullable(),
    language: z.enum(languages),
    ...recordStampsSchema,
  }),
);
export type Patient = z.infer<typeof patientSchema>;

export const patientSortColumns = [
  'lastName',
  'firstName',
  'skuPatient',
  'birthdate',
  'createdAt',
  'updatedAt',
] as const;

/**
 * GET /api/patients: `q` searches first and last name (either order, partial words: "gonz mar"
 * finds "María González"), ID number, skuPatient, e-mail and phone, accent- and case-insensitive.
 */
export const patientsListQuerySchema = listQuerySchema(patientSortColumns).extend({
  active: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
});
export type PatientsListQuery = z.output<typeof patientsListQuerySchema>;
/** A row of the patients list: the patient and their next scheduled appointment (issue 16), if any. */
export const patientListItemSchema = named(
  'PatientListItem',
  patientSchema.extend({
    nextAppointment: z.object({ id: z.uuid(), startsAt: instantText(), professionalName: z.string() }).nullable(),
  }),
);
export type PatientListItem = z.infer<typeof patientListItemSchema>;
export const patientsPageSchema = pageSchema(patientListItemSchema);

export const patientResponseSchema = z.object({
  data: patientSchema,
  code: z.enum(['patient_created', 'patient_updated']).optional(),
});

/** DELETE /api/patients/:patientId */
export const patientDeletedResponseSchema = z.object({ code: z.literal('patient_deleted') });

import { z } from 'zod';
import { dateText, instantText } from '../api-schema.ts';
import type { Language } from '../enums.ts';
import { fillTemplate } from '../template-placeholders.ts';
import { calendarDate, optionalCalendarDate, optionalText, requiredText, safeText } from '../validation.ts';
import { professionalIdField, signingProfessionalFields } from './clinical.ts';
import {
  byCodeParamsSchema,
  byCodeResponseSchema,
  recordContracts,
  recordStampsSchema,
  versionField,
} from './records.ts';

/**
 * Health certificates of the medical history (issue 24): /api/patients/:patientId/certificates.
 * Written from a template with placeholders (filled by the server when issued), the professional's
 * name, licence and specialty copied at issue, a verification code `CE-XXXX-XXXX` the front desk
 * finds with GET /api/certificates/by-code/:code. An issued certificate is never edited: only its
 * internal notes change; a mistake is voided (POST …/:id/void with a reason) and issued again.
 */

export const healthCertificateKinds = ['attendance', 'rest', 'fitness', 'free'] as const;
export type HealthCertificateKind = (typeof healthCertificateKinds)[number];

/** The placeholders a certificate's text may use. */
export const certificatePlaceholders = [
  'patient',
  'idNumber',
  'date',
  'time',
  'addressee',
  'from',
  'to',
  'days',
  'diagnosis',
  'activity',
  'professional',
  'clinic',
] as const;
export type CertificatePlaceholder = (typeof certificatePlaceholders)[number];

export { genderedText } from '../gendered-text.ts';

/** Replaces every known placeholder by its value; unknown ones stay as written. */
export function fillCertificate(text: string, values: Record<CertificatePlaceholder, string>): string {
  return fillTemplate(text, certificatePlaceholders, values);
}

const visitTime = () =>
  safeText()
    .trim()
    .refine((value) => value === '' || /^([01]\d|2[0-3]):[0-5]\d$/.test(value), 'invalid_format')
    .nullish()
    .transform((value) => (value ? value : null));

const certificateFields = {
  kind: z.enum(healthCertificateKinds),
  date: calendarDate(),
  professionalId: professionalIdField,
  /** Whom it is for: an employer, a school ("a quien corresponda" when empty). */
  addressee: optionalText(200),
  /** Attendance: the time the patient was seen. */
  visitTime: visitTime(),
  /** Rest: the first and last day of rest (both required, `restTo` not before `restFrom`). */
  restFrom: optionalCalendarDate(),
  restTo: optionalCalendarDate(),
  /** Printed only when `showDiagnosis` (the patient's choice); kept either way. */
  diagnosis: optionalText(1000),
  showDiagnosis: z.boolean().default(false),
  /** Fitness: the activity the patient is fit for (required). */
  activity: optionalText(200),
  /** The certificate's text, placeholders filled when issued. */
  text: requiredText(8000),
  /** Internal, not printed: the only field that changes after issue. */
  notes: optionalText(4000),
};

type CertificateFieldValues = z.output<z.ZodObject<typeof certificateFields>>;

function certificateRules(value: CertificateFieldValues, ctx: z.RefinementCtx) {
  const required = (path: string) => ctx.addIssue({ code: 'custom', path: [path], message: 'required' });
  if (value.kind === 'rest') {
    if (!value.restFrom) required('restFrom');
    if (!value.restTo) required('restTo');
    if (value.restFrom && value.restTo && value.restTo < value.restFrom) {
      ctx.addIssue({ code: 'custom', path: ['restTo'], message: 'invalid_value' });
    }
  }
  if (value.kind === 'fitness' && !value.activity) required('activity');
  if (value.showDiagnosis && !value.diagnosis) required('diagnosis');
}

export const healthCertificateSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  kind: z.enum(healthCertificateKinds),
  date: dateText(),
  ...signingProfessionalFields,
  addressee: z.string().nullable(),
  visitTime: z.string().nullable(),
  restFrom: z.string().nullable(),
  restTo: z.string().nullable(),
  diagnosis: z.string().nullable(),
  showDiagnosis: z.boolean(),
  activity: z.string().nullable(),
  text: z.string(),
  notes: z.string().nullable(),
  verificationCode: z.string(),
  /** Voided: when and why (who: its history of changes); the certificate stays, marked. */
  voidedAt: instantText().nullable(),
  voidReason: z.string().nullable(),
  /** The voided certificate this one was issued again for. */
  replacesId: z.uuid().nullable(),
  ...recordStampsSchema,
});
export type HealthCertificate = z.infer<typeof healthCertificateSchema>;

/** /api/patients/:patientId/certificates[/:id]: newest first (date, then id). */
export const healthCertificateContracts = recordContracts(
  'health_certificate',
  { ...certificateFields, replacesId: z.uuid('invalid_value').nullish() },
  healthCertificateSchema,
  { refine: certificateRules },
);
export const createHealthCertificateRequestSchema = healthCertificateContracts.create;
export const updateHealthCertificateRequestSchema = healthCertificateContracts.update;
export type HealthCertificateInput = z.output<typeof createHealthCertificateRequestSchema>;

/** POST …/:id/void: why (required) and the version it read. */
export const voidHealthCertificateRequestSchema = z.object({ reason: requiredText(500), version: versionField });
export const healthCertificateVoidedResponseSchema = z.object({
  data: healthCertificateSchema,
  code: z.literal('health_certificate_voided'),
});

/** 'CE-' and two groups of four letters and digits, without 0/O, 1/I/L (as prescriptions). */
export const certificateCodePattern = /^CE-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

/** GET /api/certificates/by-code/:code (upper-cased, spaces trimmed). */
export const certificateByCodeParamsSchema = byCodeParamsSchema(certificateCodePattern);
export const certificateByCodeResponseSchema = byCodeResponseSchema(healthCertificateSchema);
export type CertificateByCode = z.infer<typeof certificateByCodeResponseSchema>['data'];

/**
 * The product's certificate templates, one per kind in each language: every clinic gets them in its
 * language as its own templates (authorization_templates with the certificate's kind), which it
 * edits; a new certificate's text starts from the clinic's template (this text when the clinic has
 * none of the kind). Placeholders as listed above.
 */
export const certificateTemplates: Record<Language, Record<HealthCertificateKind, string>> = {
  es: {
    attendance:
      'A {{addressee}}:\n\nCertifico que {{patient}}, DNI {{idNumber}}, fue atendido/a en {{clinic}} el día {{date}} a las {{time}} horas.\n\nSe extiende el presente a pedido del interesado para ser presentado ante quien corresponda.',
    rest: 'A {{addressee}}:\n\nCertifico que {{patient}}, DNI {{idNumber}}, fue atendido/a en {{clinic}} el día {{date}} y debe guardar reposo durante {{days}}, desde el {{from}} hasta el {{to}} inclusive.\n\nDiagnóstico: {{diagnosis}}.',
    fitness:
      'A {{addressee}}:\n\nCertifico que {{patient}}, DNI {{idNumber}}, fue examinado/a en {{clinic}} el día {{date}} y se encuentra apto/a, desde el punto de vista odontológico, para: {{activity}}.',
    free: 'A {{addressee}}:\n\nCertifico que {{patient}}, DNI {{idNumber}}, ',
  },
  en: {
    attendance:
      "To {{addressee}}:\n\nI certify that {{patient}}, ID number {{idNumber}}, was seen at {{clinic}} on {{date}} at {{time}}.\n\nThis certificate is issued at the patient's request.",
    rest: 'To {{addressee}}:\n\nI certify that {{patient}}, ID number {{idNumber}}, was seen at {{clinic}} on {{date}} and must rest for {{days}}, from {{from}} to {{to}} inclusive.\n\nDiagnosis: {{diagnosis}}.',
    fitness:
      'To {{addressee}}:\n\nI certify that {{patient}}, ID number {{idNumber}}, was examined at {{clinic}} on {{date}} and is fit, from a dental point of view, for: {{activity}}.',
    free: 'To {{addressee}}:\n\nI certify that {{patient}}, ID number {{idNumber}}, ',
  },
  fr: {
    attendance:
      "À {{addressee}} :\n\nJe certifie que {{patient}}, pièce d'identité {{idNumber}}, a été reçu(e) à {{clinic}} le {{date}} à {{time}}.\n\nCertificat délivré à la demande de l'intéressé(e).",
    rest: "À {{addressee}} :\n\nJe certifie que {{patient}}, pièce d'identité {{idNumber}}, a été reçu(e) à {{clinic}} le {{date}} et doit observer un repos de {{days}}, du {{from}} au {{to}} inclus.\n\nDiagnostic : {{diagnosis}}.",
    fitness:
      "À {{addressee}} :\n\nJe certifie que {{patient}}, pièce d'identité {{idNumber}}, a été examiné(e) à {{clinic}} le {{date}} et est apte, du point de vue dentaire, à : {{activity}}.",
    free: "À {{addressee}} :\n\nJe certifie que {{patient}}, pièce d'identité {{idNumber}}, ",
  },
  pt: {
    attendance:
      'A {{addressee}}:\n\nAtesto que {{patient}}, documento {{idNumber}}, foi atendido(a) em {{clinic}} no dia {{date}} às {{time}}.\n\nO presente atestado é emitido a pedido do(a) interessado(a).',
    rest: 'A {{addressee}}:\n\nAtesto que {{patient}}, documento {{idNumber}}, foi atendido(a) em {{clinic}} no dia {{date}} e deve permanecer em repouso por {{days}}, de {{from}} a {{to}} inclusive.\n\nDiagnóstico: {{diagnosis}}.',
    fitness:
      'A {{addressee}}:\n\nAtesto que {{patient}}, documento {{idNumber}}, foi examinado(a) em {{clinic}} no dia {{date}} e está apto(a), do ponto de vista odontológico, para: {{activity}}.',
    free: 'A {{addressee}}:\n\nAtesto que {{patient}}, documento {{idNumber}}, ',
  },
};

/** The titles of a clinic's default certificate templates (one per kind, written at sign-up). */
export const certificateTemplateTitles: Record<Language, Record<HealthCertificateKind, string>> = {
  es: {
    attendance: 'Certificado de asistencia',
    rest: 'Certificado de reposo',
    fitness: 'Certificado de aptitud',
    free: 'Certificado libre',
  },
  en: {
    attendance: 'Attendance certificate',
    rest: 'Rest certificate',
    fitness: 'Fitness certificate',
    free: 'Free-text certificate',
  },
  fr: {
    attendance: 'Certificat de présence',
    rest: 'Certificat de repos',
    fitness: "Certificat d'aptitude",
    free: 'Certificat libre',
  },
  pt: {
    attendance: 'Atestado de comparecimento',
    rest: 'Atestado de repouso',
    fitness: 'Atestado de aptidão',
    free: 'Atestado livre',
  },
};

/** What fills {{addressee}} when none is given, and {{diagnosis}} when the patient withholds it. */
export const certificateDefaults: Record<Language, { addressee: string; withheld: string; day: string; days: string }> =
  {
    es: { addressee: 'quien corresponda', withheld: 'reservado a pedido del paciente', day: 'día', days: 'días' },
    en: { addressee: 'whom it may concern', withheld: "withheld at the patient's request", day: 'day', days: 'days' },
    fr: { addressee: 'qui de droit', withheld: 'non communiqué à la demande du patient', day: 'jour', days: 'jours' },
    pt: { addressee: 'quem interessar possa', withheld: 'omitido a pedido do paciente', day: 'dia', days: 'dias' },
  };

/** "1 día", "3 días": {{days}} with its word, in the document's language. */
export function restDays(language: Language, count: number): string {
  const words = certificateDefaults[language];
  return `${count} ${count === 1 ? words.day : words.days}`;
}

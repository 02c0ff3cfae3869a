import { z } from 'zod';
import { dateText, instantText, moneyText } from '../api-schema.ts';
import { currencies } from '../currencies.ts';
import { languages } from '../languages.ts';
import { emailAddress, requiredText, safeText } from '../validation.ts';
import { clinicBrandSchema } from './clinic-brand.ts';
import { idSchema } from './common.ts';
import { openDocumentSchema } from './payments.ts';

/**
 * Contracts of the patient portal (issue 37): the clinic's public address, a patient's access
 * (invitation, request, one-time link) and the patient's own data under /api/portal.
 */

/** The clinic's public address: lower-case letters, digits and hyphens, 3 to 60 (`accounts.public_slug`). */
export const clinicSlugPattern = /^[a-z0-9-]{3,60}$/;
export const clinicSlugSchema = safeText().regex(clinicSlugPattern, 'invalid_value');
export const clinicSlugParamsSchema = z.object({ slug: clinicSlugSchema });

/** The clinic as the portal and its public page show it. */
export const portalClinicSchema = z.object({
  name: z.string(),
  slug: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  timeZone: z.string(),
  language: z.enum(languages),
  currency: z.enum(currencies),
  brand: clinicBrandSchema,
});
export type PortalClinic = z.infer<typeof portalClinicSchema>;

/** GET /api/public/clinics/:slug */
export const publicClinicResponseSchema = z.object({ data: portalClinicSchema });

/** POST /api/public/clinics/:slug/portal-access: the patient's e-mail and ID number, as the clinic has them. */
export const portalAccessRequestSchema = z.object({
  email: emailAddress(),
  ssn: requiredText(30),
});
/** The same answer whether or not a patient matched (nobody learns who is a patient). */
export const portalAccessRequestedResponseSchema = z.object({ code: z.literal('portal_access_requested') });

/** POST /api/public/portal-links/:token: the one-time link of an invitation or a request. */
export const portalLinkParamsSchema = z.object({ token: safeText().min(1).max(512) });

/** A patient's portal access as the staff see it. */
export const portalAccessStates = ['none', 'invited', 'active'] as const;
export type PortalAccessState = (typeof portalAccessStates)[number];
export const portalAccessSchema = z.object({
  state: z.enum(portalAccessStates),
  /** The membership's e-mail (the patient's when none yet). */
  email: z.string().nullable(),
  invitedAt: instantText().nullable(),
  activatedAt: instantText().nullable(),
});
export type PortalAccess = z.infer<typeof portalAccessSchema>;
export const portalAccessResponseSchema = z.object({ data: portalAccessSchema });
/** POST (invited) and DELETE (revoked) …/portal-access: the new state and the toast's code. */
export const portalAccessChangedResponseSchema = z.object({
  data: portalAccessSchema,
  code: z.enum(['portal_access_invited', 'portal_access_revoked']),
});
export const patientPortalParamsSchema = z.object({ patientId: idSchema });

/** One of the clinics whose portal the signed-in person may enter (the choice of clinic). */
export const portalClinicChoiceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  /** The clinic's logo under /api (GET, public) when it has one. */
  logoPath: z.string().nullable(),
  /** This session's clinic. */
  current: z.boolean(),
});
export type PortalClinicChoice = z.infer<typeof portalClinicChoiceSchema>;

/**
 * GET /api/portal/me: the patient, the clinic and the portal's settings; the person's sign-in
 * (its e-mail and whether it has a password: the password page's form) and the clinics whose portal
 * they may enter, by name (two or more: the portal offers a choice; never a staff membership).
 */
export const portalMeSchema = z.object({
  signIn: z.object({ email: z.string(), hasPassword: z.boolean() }),
  clinics: z.array(portalClinicChoiceSchema),
  patient: z.object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    language: z.enum(languages),
  }),
  clinic: portalClinicSchema,
  settings: z.object({
    /**
     * An appointment may be confirmed, cancelled or moved online until this many hours before it
     * (online booking's rule of the same name, `changeHours`).
     */
    changeHours: z.number().int(),
    /** The clinic's "how to pay" text (settings `portalPaymentInstructions`). */
    paymentInstructions: z.string().nullable(),
  }),
});
export type PortalMe = z.infer<typeof portalMeSchema>;
export const portalMeResponseSchema = z.object({ data: portalMeSchema });

/** GET /api/portal/appointments: the patient's appointments, upcoming (soonest first) and past (newest first). */
export const portalAppointmentSchema = z.object({
  id: z.uuid(),
  startsAt: instantText(),
  endsAt: instantText(),
  status: z.enum(['scheduled', 'completed', 'cancelled', 'rescheduled']),
  /** Who and what: a reschedule starts with the same professional and treatment chosen. */
  professionalId: z.uuid(),
  professionalName: z.string(),
  treatmentId: z.uuid().nullable(),
  treatmentName: z.string().nullable(),
  reason: z.string().nullable(),
  /** When the patient (or the front desk for them) confirmed it; null: not confirmed yet. */
  confirmedAt: instantText().nullable(),
  /** Still before the clinic's window (`settings.changeHours` of /portal/me): the patient may act online. */
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
});
export type PortalAppointment = z.infer<typeof portalAppointmentSchema>;
export const portalAppointmentsResponseSchema = z.object({
  data: z.object({ upcoming: z.array(portalAppointmentSchema), past: z.array(portalAppointmentSchema) }),
});

/**
 * The patient's documents: prescriptions, health certificates (not voided), signed consents, and
 * the issued sales and the collections (receipts) of the patient's own customer account.
 */
export const portalDocumentKinds = ['prescription', 'certificate', 'consent', 'sale', 'receipt'] as const;
export type PortalDocumentKind = (typeof portalDocumentKinds)[number];
export const portalDocumentSchema = z.object({
  kind: z.enum(portalDocumentKinds),
  id: z.uuid(),
  date: dateText(),
  /** What it is: a sale's type ('invoice', 'receipt'…), a certificate's kind, a consent's title; null for a prescription. */
  title: z.string().nullable(),
  /** A sale's or a collection's number. */
  number: z.string().nullable(),
  /** A sale's total or a collection's amount, in the clinic's currency. */
  amount: moneyText().nullable(),
});
export type PortalDocument = z.infer<typeof portalDocumentSchema>;
export const portalDocumentsResponseSchema = z.object({ data: z.array(portalDocumentSchema) });
/** GET /api/portal/documents/:kind/:id/pdf: the same PDF the clinic prints. */
export const portalDocumentParamsSchema = z.object({ kind: z.enum(portalDocumentKinds), id: idSchema });

/** GET /api/portal/balance: what the patient owes (positive) or has in favour, and how to pay. */
export const portalBalanceSchema = z.object({
  currency: z.enum(currencies),
  balance: moneyText(),
  /** Collections not yet allocated and credit notes not applied. */
  onAccount: moneyText(),
  /** Issued sales with something still owed, oldest due first. */
  documents: z.array(openDocumentSchema),
  paymentInstructions: z.string().nullable(),
});
export type PortalBalance = z.infer<typeof portalBalanceSchema>;
export const portalBalanceResponseSchema = z.object({ data: portalBalanceSchema });

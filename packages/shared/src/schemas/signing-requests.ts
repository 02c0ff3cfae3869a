import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { languages } from '../enums.ts';
import { safeText } from '../validation.ts';
import { signAuthorizationRequestSchema } from './authorizations.ts';
import { clinicBrandSchema } from './clinic-brand.ts';

/**
 * Remote signing (issue 37): a consent or a budget mailed to the patient as a one-time link, signed
 * on the phone with the same pad, hash and audit as at the chair.
 */

export const signingKinds = ['authorization', 'budget'] as const;
export type SigningKind = (typeof signingKinds)[number];

/** `expired`: pending, past its expiry (stored as pending; read as expired). */
export const signingRequestStatuses = ['pending', 'signed', 'expired', 'cancelled'] as const;
export type SigningRequestStatus = (typeof signingRequestStatuses)[number];

/** A document's latest signing request, as its view shows it. */
export const signingRequestSchema = z.object({
  id: z.uuid(),
  kind: z.enum(signingKinds),
  status: z.enum(signingRequestStatuses),
  sentTo: z.string(),
  sentAt: instantText(),
  sentByName: z.string().nullable(),
  language: z.enum(languages),
  expiresAt: instantText(),
  signedAt: instantText().nullable(),
  signerIp: z.string().nullable(),
  cancelledAt: instantText().nullable(),
});
export type SigningRequest = z.infer<typeof signingRequestSchema>;

export const signingRequestAnswerSchema = z.object({
  data: signingRequestSchema.nullable(),
  code: z.enum(['signing_request_sent', 'signing_request_cancelled']).optional(),
});

// Public (no sign-in): /api/public/signing/:token

export const signingLinkParamsSchema = z.object({
  token: safeText().trim().min(20, 'invalid_value').max(200, 'invalid_value'),
});

/** What the public page shows: the clinic, the document's exact text to sign and its state. */
export const signingLinkSchema = z.object({
  kind: z.enum(signingKinds),
  clinicName: z.string(),
  /** The clinic's colour and logo on the page (issue 37). */
  clinicBrand: clinicBrandSchema,
  patientName: z.string(),
  language: z.enum(languages),
  /** The text a signature seals, exactly as the chair shows it. */
  text: z.string(),
  status: z.enum(signingRequestStatuses),
  expiresAt: instantText(),
  signedAt: instantText().nullable(),
});
export type SigningLink = z.infer<typeof signingLinkSchema>;

export const signingLinkAnswerSchema = z.object({
  data: signingLinkSchema,
  code: z.literal('document_signed').optional(),
});

/**
 * POST /api/public/signing/:token: the same fields as a signature at the chair, and the text the
 * page showed: when the document changed since, nothing is signed (409 signing_document_changed).
 */
export const remoteSignRequestSchema = signAuthorizationRequestSchema.extend({
  text: z.string().max(200_000, 'too_big'),
});
export type RemoteSignRequest = z.input<typeof remoteSignRequestSchema>;

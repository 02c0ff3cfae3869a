import { z } from 'zod';
import { instantText, named } from '../api-schema.ts';
import { safeText } from '../validation.ts';
import { versionField } from './records.ts';

/**
 * Electronic invoicing per clinic (issue 39; docs/decisions.md "Electronic invoicing: ARCA and
 * Verifactu"): /api/settings/einvoicing. The regime decides where issued sales go: `local` (no
 * authority; documents say "sin validez fiscal"), `arca` (Argentina, WSFEv1: a CAE per voucher) or
 * `verifactu` (Spain: a chained record per invoice to the AEAT). The certificate is sealed at rest
 * and never answered back; only what it says (subject, tax id, validity).
 */

export const einvoiceRegimes = ['local', 'arca', 'verifactu'] as const;
export type EinvoiceRegime = (typeof einvoiceRegimes)[number];
export const einvoiceEnvironments = ['homologation', 'production'] as const;
export type EinvoiceEnvironment = (typeof einvoiceEnvironments)[number];

export const certificateInfoSchema = named(
  'EinvoiceCertificate',
  z.object({
    subject: z.string(),
    issuer: z.string(),
    serialNumber: z.string(),
    /** The CUIT or NIF the certificate names (null: none found in its subject). */
    taxId: z.string().nullable(),
    notBefore: instantText(),
    notAfter: instantText(),
  }),
);
export type EinvoiceCertificate = z.infer<typeof certificateInfoSchema>;

/** A series as the authority numbers it (ARCA: a point of sale and voucher type; Verifactu: the clinic's chain). */
export const einvoiceSeriesSchema = z.object({
  series: z.string(),
  pointOfSale: z.number().int().nullable(),
  voucherType: z.number().int().nullable(),
  /** ARCA: the last number authorised, as we know it. */
  lastNumber: z.number().int(),
  /** ARCA: the authority's last number when last asked. */
  authorityLastNumber: z.number().int().nullable(),
  /** Ours and the authority's differed when last asked (vouchers authorised outside Odontia). */
  difference: z.object({ ours: z.number().int(), authority: z.number().int(), at: instantText() }).nullable(),
  checkedAt: instantText().nullable(),
});

export const einvoiceSettingsSchema = named(
  'EinvoiceSettings',
  z.object({
    regime: z.enum(einvoiceRegimes),
    environment: z.enum(einvoiceEnvironments),
    certificate: certificateInfoSchema.nullable(),
    /** The clinic's points of sale and the authority's number for each (ARCA's punto de venta). */
    pointsOfSale: z.array(
      z.object({ code: z.string(), name: z.string(), active: z.boolean(), authorityNumber: z.number().int() }),
    ),
    series: z.array(einvoiceSeriesSchema),
    /** Submissions by state now (what the queue holds). */
    queue: z.object({
      pending: z.number().int(),
      sending: z.number().int(),
      rejected: z.number().int(),
      contingency: z.number().int(),
    }),
    /** Null until the settings are first saved. */
    updatedAt: instantText().nullable(),
    version: z.number().int(),
  }),
);
export type EinvoiceSettings = z.infer<typeof einvoiceSettingsSchema>;

export const einvoiceSettingsAnswerSchema = z.object({
  data: einvoiceSettingsSchema,
  code: z
    .enum(['einvoice_settings_updated', 'einvoice_certificate_updated', 'einvoice_certificate_removed'])
    .optional(),
});

/** PUT /settings/einvoicing. */
export const einvoiceSettingsUpdateSchema = z.object({
  regime: z.enum(einvoiceRegimes, 'invalid_value'),
  environment: z.enum(einvoiceEnvironments, 'invalid_value'),
  pointsOfSale: z
    .array(
      z.object({
        code: safeText()
          .trim()
          .regex(/^\d{4,5}$/, 'invalid_format'),
        authorityNumber: z.number().int('invalid_value').min(1, 'too_small').max(99998, 'too_big').nullable(),
      }),
    )
    .max(200, 'too_big')
    .default([]),
  version: versionField,
});
export type EinvoiceSettingsUpdate = z.output<typeof einvoiceSettingsUpdateSchema>;

const pemText = () => safeText().trim().max(20_000, 'too_long');

/**
 * PUT /settings/einvoicing/certificate: the certificate and its key as PEM (ARCA gives a .crt for
 * the key the clinic generated), or a PKCS#12 file in base64 with its password (Spain's FNMT).
 */
export const einvoiceCertificateUploadSchema = z
  .object({
    certificatePem: pemText().nullish(),
    privateKeyPem: pemText().nullish(),
    pkcs12: z
      .string()
      .trim()
      .max(60_000, 'too_long')
      .regex(/^[A-Za-z0-9+/=\s]*$/, 'invalid_format')
      .nullish(),
    password: z.string().max(200, 'too_long').nullish(),
  })
  .superRefine((value, ctx) => {
    if (value.pkcs12) return;
    if (!value.certificatePem) ctx.addIssue({ code: 'custom', path: ['certificatePem'], message: 'required' });
    if (!value.privateKeyPem) ctx.addIssue({ code: 'custom', path: ['privateKeyPem'], message: 'required' });
  });
export type EinvoiceCertificateUpload = z.output<typeof einvoiceCertificateUploadSchema>;

/** POST /settings/einvoicing/test: what the authority answered. */
export const einvoiceConnectionSchema = named(
  'EinvoiceConnection',
  z.object({
    regime: z.enum(einvoiceRegimes),
    ok: z.boolean(),
    /** A message code: einvoice_connection_ok, or the fault's (einvoice_authority_unreachable, einvoice_certificate_refused…). */
    code: z.string(),
    /** What the authority said, as said (its servers' state, its error text), for the record. */
    detail: z.string().nullable(),
    /** ARCA: the points of sale enabled for web services. */
    pointsOfSale: z.array(z.object({ number: z.number().int(), blocked: z.boolean() })),
  }),
);
export const einvoiceConnectionAnswerSchema = z.object({ data: einvoiceConnectionSchema });

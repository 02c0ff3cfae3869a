import { z } from 'zod';
import { dateText, instantText, moneyText } from '../api-schema.ts';
import { type Currency, currencyIsoCodes } from '../enums.ts';
import { fillTemplate, placeholderPattern } from '../template-placeholders.ts';
import { calendarDate, moneyAmount, optionalText, requiredText, safeText, searchText } from '../validation.ts';
import { professionalIdField } from './clinical.ts';
import { idSchema, pageSchema } from './common.ts';
import { certificatePlaceholders, healthCertificateKinds } from './health-certificates.ts';
import { recordStampsSchema, versionField } from './records.ts';

/**
 * Treatment authorizations (informed consent) and the clinic's templates (issue 6):
 * /api/authorization-templates and /api/patients/:patientId/authorizations. A template's body
 * holds placeholders that the server fills when an authorization is written from it; the
 * authorization is editable until it is signed, and a signature keeps the exact text signed, the
 * signature image and a SHA-256 over both (see `signatureHashInput`).
 */

/** The placeholders a template may use, in the order the form explains them. */
export const authorizationPlaceholders = [
  'patient',
  'idNumber',
  'treatment',
  'risks',
  'alternatives',
  'cost',
  'professional',
  'date',
  'clinic',
] as const;
export type AuthorizationPlaceholder = (typeof authorizationPlaceholders)[number];

/**
 * What a template is for: an informed consent (the authorizations' templates) or a health
 * certificate of one kind (issue 24). Each kind knows its own placeholders.
 */
export const templateKinds = ['consent', ...healthCertificateKinds] as const;
export type TemplateKind = (typeof templateKinds)[number];

/** The placeholders a template of a kind may use. */
export function placeholdersOf(kind: TemplateKind): readonly string[] {
  return kind === 'consent' ? authorizationPlaceholders : certificatePlaceholders;
}

/** The placeholders of a text that are not known for its kind (each once, in order of appearance). */
export function unknownPlaceholders(text: string, kind: TemplateKind = 'consent'): string[] {
  const known = new Set<string>(placeholdersOf(kind));
  const unknown: string[] = [];
  for (const match of text.matchAll(placeholderPattern)) {
    const name = match[1] ?? '';
    if (!known.has(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}

/** Replaces every known placeholder ({{ name }}, spaces allowed) by its value; unknown ones stay. */
export function fillPlaceholders(text: string, values: Record<AuthorizationPlaceholder, string>): string {
  return fillTemplate(text, authorizationPlaceholders, values);
}

/** The locale money is written in: Argentine pesos as in Argentina, reais as in Brazil. */
export function moneyLocale(language: string, currency: Currency): string {
  if (language === 'es' && currency === 'argentine_peso') return 'es-AR';
  if (language === 'pt' && currency === 'brazilian_real') return 'pt-BR';
  return language;
}

/** A decimal string ("150000.00") as money of the clinic's currency, in a language. */
export function formatMoney(amount: string, currency: Currency, language: string): string {
  const format = new Intl.NumberFormat(moneyLocale(language, currency), {
    style: 'currency',
    currency: currencyIsoCodes[currency],
  });
  // Intl.NumberFormat formats a decimal string exactly (ES2023); the types still say number.
  return format.format(amount as unknown as number);
}

/** 'YYYY-MM-DD' as a clinic writes it: DD/MM/YYYY. */
export function writtenDate(day: string): string {
  const [year, month, day_] = day.split('-');
  return `${day_}/${month}/${year}`;
}

/** A body field: required, at most 20,000 characters, only known placeholders. */
const bodyField = () =>
  requiredText(20000).superRefine((value, ctx) => {
    if (unknownPlaceholders(value).length > 0) {
      ctx.addIssue({ code: 'custom', message: 'unknown_placeholder', params: { names: unknownPlaceholders(value) } });
    }
  });

// ---------------------------------------------------------------- templates

const templateFields = {
  /** 'consent' unless given; the body's placeholders are checked against the kind's. */
  kind: z.enum(templateKinds).default('consent'),
  title: requiredText(200),
  body: requiredText(20000),
  active: z.boolean().default(true),
};

function templateRules(value: { kind: TemplateKind; body: string }, ctx: z.RefinementCtx) {
  const names = unknownPlaceholders(value.body, value.kind);
  if (names.length > 0)
    ctx.addIssue({ code: 'custom', path: ['body'], message: 'unknown_placeholder', params: { names } });
}

/** POST /api/authorization-templates (settings.manage) */
export const createAuthorizationTemplateRequestSchema = z.object(templateFields).superRefine(templateRules);
/** PUT /api/authorization-templates/:id (settings.manage) */
export const updateAuthorizationTemplateRequestSchema = z
  .object({ ...templateFields, version: versionField })
  .superRefine(templateRules);
export type CreateAuthorizationTemplateRequest = z.input<typeof createAuthorizationTemplateRequestSchema>;
export type AuthorizationTemplateInput = z.output<typeof createAuthorizationTemplateRequestSchema>;

export const authorizationTemplateSchema = z.object({
  id: z.uuid(),
  kind: z.enum(templateKinds),
  title: z.string(),
  body: z.string(),
  active: z.boolean(),
  ...recordStampsSchema,
});
export type AuthorizationTemplate = z.infer<typeof authorizationTemplateSchema>;

/** GET /api/authorization-templates?kind=consent&active=true&q=…: by title (every kind when no kind). */
export const authorizationTemplatesQuerySchema = z.object({
  kind: z.enum(templateKinds).optional(),
  q: searchText().optional(),
  active: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type AuthorizationTemplatesQuery = z.output<typeof authorizationTemplatesQuerySchema>;
export const authorizationTemplatesPageSchema = pageSchema(authorizationTemplateSchema);
export const authorizationTemplateParamsSchema = z.object({ id: idSchema });
export const authorizationTemplateResponseSchema = z.object({
  data: authorizationTemplateSchema,
  code: z.enum(['authorization_template_created', 'authorization_template_updated']).optional(),
});
export const authorizationTemplateDeletedResponseSchema = z.object({
  code: z.literal('authorization_template_deleted'),
});

// ---------------------------------------------------------------- authorizations

export const authorizationStatuses = ['unsigned', 'signed'] as const;
export type AuthorizationStatus = (typeof authorizationStatuses)[number];

const optionalMoney = () =>
  z.preprocess((value) => (value === '' || value === undefined ? null : value), moneyAmount().nullable());

const authorizationFields = {
  date: calendarDate(),
  professionalId: professionalIdField,
  treatment: requiredText(500),
  risks: optionalText(4000),
  alternatives: optionalText(4000),
  /** In the clinic's currency; printed with it. */
  costEstimate: optionalMoney(),
};

/**
 * POST /api/patients/:patientId/authorizations: written from an active template of the clinic;
 * the title defaults to the template's, the body is the template's with its placeholders filled.
 */
export const createAuthorizationRequestSchema = z.object({
  templateId: idSchema,
  title: optionalText(200),
  ...authorizationFields,
});
/**
 * PUT …/authorizations/:id while unsigned: fields, title and the body as edited by hand (known
 * placeholders left in it are filled again from the fields; unknown ones are refused).
 */
export const updateAuthorizationRequestSchema = z.object({
  title: requiredText(200),
  body: bodyField(),
  ...authorizationFields,
  version: versionField,
});
export type CreateAuthorizationRequest = z.input<typeof createAuthorizationRequestSchema>;
export type UpdateAuthorizationRequest = z.input<typeof updateAuthorizationRequestSchema>;
export type AuthorizationCreateInput = z.output<typeof createAuthorizationRequestSchema>;
export type AuthorizationUpdateInput = z.output<typeof updateAuthorizationRequestSchema>;

/** Limits of a signature image: a PNG of at most 512 KiB, 50×20 to 4000×2000 pixels. */
export const signatureLimits = {
  maxBytes: 512 * 1024,
  minWidth: 50,
  minHeight: 20,
  maxWidth: 4000,
  maxHeight: 2000,
  /** Fewer drawn (opaque, dark) pixels than this is an empty pad. */
  minInkPixels: 30,
} as const;

/**
 * POST …/authorizations/:id/sign. `signature`: the PNG as base64, with or without the
 * `data:image/png;base64,` prefix (what a canvas gives).
 */
export const signAuthorizationRequestSchema = z.object({
  signerName: requiredText(200),
  signerIdNumber: requiredText(40),
  signature: safeText()
    .trim()
    .min(1, 'required')
    .max(Math.ceil((signatureLimits.maxBytes * 4) / 3) + 64, 'too_big'),
});
export type SignAuthorizationRequest = z.input<typeof signAuthorizationRequestSchema>;

/** POST …/authorizations/:id/unsign */
export const unsignAuthorizationRequestSchema = z.object({ reason: requiredText(1000) });

export const authorizationListQuerySchema = z.object({
  status: z.enum(authorizationStatuses).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type AuthorizationListQuery = z.output<typeof authorizationListQuerySchema>;

/** One signature of an authorization (standing, or revoked with its reason). */
export const authorizationSignatureSchema = z.object({
  id: z.uuid(),
  signerName: z.string(),
  signerIdNumber: z.string(),
  signedAt: instantText(),
  collectedByName: z.string().nullable(),
  /** SHA-256 (hex) over the UTF-8 bytes of `signedText`, one 0x00 byte, then the PNG bytes. */
  sha256: z.string(),
  signedText: z.string(),
  /** The signature as a data: URL (image/png). */
  image: z.string(),
  revokedAt: instantText().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export type AuthorizationSignature = z.infer<typeof authorizationSignatureSchema>;

export const authorizationSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  templateId: z.uuid().nullable(),
  templateTitle: z.string().nullable(),
  date: dateText(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  title: z.string(),
  treatment: z.string(),
  risks: z.string().nullable(),
  alternatives: z.string().nullable(),
  costEstimate: moneyText().nullable(),
  body: z.string(),
  status: z.enum(authorizationStatuses),
  /** When the standing signature was made (null when unsigned). */
  signedAt: instantText().nullable(),
  /**
   * Unsigned after a signature was revoked: when and by whom (the latest revocation). Null when a
   * signature stands or none was ever made: a revoked consent never looks like one never signed.
   */
  revokedAt: instantText().nullable(),
  revokedByName: z.string().nullable(),
  ...recordStampsSchema,
});
export type Authorization = z.infer<typeof authorizationSchema>;

/** GET …/authorizations/:id: the authorization with every signature, newest first. */
export const authorizationDetailSchema = authorizationSchema.extend({
  signatures: z.array(authorizationSignatureSchema),
});
export type AuthorizationDetail = z.infer<typeof authorizationDetailSchema>;

export const authorizationsPageSchema = pageSchema(authorizationSchema);
export const authorizationResponseSchema = z.object({
  data: authorizationDetailSchema,
  code: z
    .enum(['authorization_created', 'authorization_updated', 'authorization_signed', 'authorization_unsigned'])
    .optional(),
});
export const authorizationDeletedResponseSchema = z.object({ code: z.literal('authorization_deleted') });

/** GET …/authorizations/:id/verify: each signature's hash recomputed from the stored text and image. */
export const authorizationVerificationSchema = z.object({
  data: z.object({
    /** Every signature matches (true when there is none). */
    valid: z.boolean(),
    signatures: z.array(
      z.object({
        id: z.uuid(),
        sha256: z.string(),
        recomputed: z.string(),
        matches: z.boolean(),
        revoked: z.boolean(),
      }),
    ),
  }),
});
export type AuthorizationVerification = z.infer<typeof authorizationVerificationSchema>['data'];

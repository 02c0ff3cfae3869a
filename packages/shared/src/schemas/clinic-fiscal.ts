import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import {
  type FiscalCountry,
  fiscalConditions,
  fiscalConditionsByCountry,
  fiscalCountries,
  taxIdKindsByCountry,
} from '../commercial.ts';
import { isValidTaxId, normalizeTaxId, type TaxIdKind, taxIdKinds } from '../tax-ids.ts';
import { optionalEmail, optionalPhone, optionalText, requiredText, safeText } from '../validation.ts';
import { idSchema } from './common.ts';
import { recordContracts, recordStampsSchema, versionField } from './records.ts';

/**
 * The clinic's business and fiscal data (issue 17, spec §1): GET/PUT /api/settings/fiscal, the logo
 * at /api/settings/fiscal/logo, points of sale at /api/points-of-sale. Every PDF prints them, and
 * each commercial document copies them (`issuerSnapshot` / `counterpartySnapshot`) when it is
 * registered or issued.
 */

/** A tax id checked against its kind: the field error is `invalid_tax_id` on `idKey`. */
export function refineTaxId<TValue extends Record<string, unknown>>(
  value: TValue,
  ctx: z.RefinementCtx,
  keys: { kind: keyof TValue & string; id: keyof TValue & string },
): void {
  const kind = value[keys.kind] as TaxIdKind | null | undefined;
  const id = value[keys.id] as string | null | undefined;
  if (!id) return;
  if (!kind) {
    ctx.addIssue({ code: 'custom', path: [keys.kind], message: 'required' });
    return;
  }
  if (!isValidTaxId(kind, id)) ctx.addIssue({ code: 'custom', path: [keys.id], message: 'invalid_tax_id' });
}

/** A tax id as typed, stored without separators and upper-cased (printed with `formatTaxId`). */
export const taxIdField = () =>
  safeText()
    .trim()
    .max(30, 'too_long')
    .nullish()
    .transform((value) => (value ? normalizeTaxId(value) : null));

export const fiscalDataFields = {
  legalName: requiredText(160),
  tradeName: optionalText(160),
  country: z.enum(fiscalCountries),
  taxIdKind: z
    .enum(taxIdKinds)
    .nullish()
    .transform((value) => value ?? null),
  taxId: taxIdField(),
  fiscalCondition: z.enum(fiscalConditions as [string, ...string[]]),
  address: optionalText(300),
  city: optionalText(120),
  province: optionalText(120),
  postalCode: optionalText(20),
  phone: optionalPhone(),
  phoneMobile: optionalPhone(),
  email: optionalEmail(),
  website: optionalText(200),
};

/** The country's tax-id kinds and fiscal conditions only; the tax id's check digits. */
function refineFiscalData(
  value: { country: FiscalCountry; taxIdKind: TaxIdKind | null; taxId: string | null; fiscalCondition: string },
  ctx: z.RefinementCtx,
) {
  if (value.taxIdKind && !taxIdKindsByCountry[value.country].includes(value.taxIdKind))
    ctx.addIssue({ code: 'custom', path: ['taxIdKind'], message: 'invalid_value' });
  if (!(fiscalConditionsByCountry[value.country] as readonly string[]).includes(value.fiscalCondition))
    ctx.addIssue({ code: 'custom', path: ['fiscalCondition'], message: 'invalid_value' });
  refineTaxId(value, ctx, { kind: 'taxIdKind', id: 'taxId' });
}

/** PUT /api/settings/fiscal: the fields and the version the edit started from (409 when stale). */
export const updateFiscalDataSchema = z
  .object({ ...fiscalDataFields, version: versionField })
  .superRefine(refineFiscalData);
export type UpdateFiscalData = z.output<typeof updateFiscalDataSchema>;

/** A party's fiscal identity as answered (the clinic's fiscal data, a customer). */
export const fiscalPartyAnswerFields = {
  tradeName: z.string().nullable(),
  country: z.enum(fiscalCountries).nullable(),
  taxIdKind: z.enum(taxIdKinds).nullable(),
  taxId: z.string().nullable(),
  fiscalCondition: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  postalCode: z.string().nullable(),
};

/** The clinic's fiscal data as answered; `legalName` null until someone fills them in. */
export const fiscalDataSchema = z.object({
  clinicName: z.string(),
  legalName: z.string().nullable(),
  ...fiscalPartyAnswerFields,
  phone: z.string().nullable(),
  phoneMobile: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  currency: z.string(),
  /** The logo's content hash (for the image URL's cache key), or null without one. */
  logoSha256: z.string().nullable(),
  updatedAt: instantText(),
  version: z.number().int(),
});
export type FiscalData = z.infer<typeof fiscalDataSchema>;
export const fiscalDataResponseSchema = z.object({
  data: fiscalDataSchema,
  code: z.enum(['fiscal_data_updated', 'logo_updated', 'logo_removed']).optional(),
});

/**
 * What a document copies of a party when it is registered or issued: the issuer (a purchase's
 * provider; a sale's clinic) and the counterparty. Printed as it was, whatever changes later.
 */
export const partySnapshotSchema = z.object({
  name: z.string(),
  legalName: z.string().nullable(),
  taxIdKind: z.string().nullable(),
  taxId: z.string().nullable(),
  fiscalCondition: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export type PartySnapshot = z.infer<typeof partySnapshotSchema>;

/** A point of sale (punto de venta): '0001'. */
export const pointOfSaleCode = () =>
  safeText()
    .trim()
    .regex(/^\d{1,5}$/, 'invalid_format')
    .transform((value) => value.padStart(4, '0'));

const pointOfSaleFields = {
  code: pointOfSaleCode(),
  name: requiredText(120),
  active: z.boolean().default(true),
};
export const pointOfSaleSchema = z.object({
  id: idSchema,
  code: z.string(),
  name: z.string(),
  active: z.boolean(),
  ...recordStampsSchema,
});
export type PointOfSale = z.infer<typeof pointOfSaleSchema>;
export const pointOfSaleContracts = recordContracts('point_of_sale', pointOfSaleFields, pointOfSaleSchema);

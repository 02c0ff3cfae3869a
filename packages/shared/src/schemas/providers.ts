import { z } from 'zod';
import { named } from '../api-schema.ts';
import { fiscalConditions } from '../commercial.ts';
import { currencies } from '../enums.ts';
import { taxIdKinds } from '../tax-ids.ts';
import { optionalEmail, optionalPhone, optionalText, phoneArea, requiredText, wholeNumber } from '../validation.ts';
import { refineTaxId, taxIdField } from './clinic-fiscal.ts';
import { idSchema, listQuerySchema } from './common.ts';
import { recordContracts, recordStampsSchema } from './records.ts';

/**
 * Providers (issue 17, spec §3 "Provider"): /api/providers. `nif` is the provider's tax id of
 * kind `taxIdKind` (CUIT, NIF, CNPJ…; its check digits are checked), unique in the clinic: a
 * second provider with it answers 409 `provider_tax_id_exists` naming the first. The spec's names
 * are kept: `fantasyName` is the name people use (nombre de fantasía), `bussinesName` the legal
 * name (razón social), `companyName` the group or brand it belongs to.
 */

export const providerFields = {
  nif: taxIdField(),
  taxIdKind: z
    .enum(taxIdKinds)
    .nullish()
    .transform((value) => value ?? null),
  fantasyName: requiredText(160),
  bussinesName: optionalText(160),
  companyName: optionalText(160),
  fiscalCondition: z
    .enum(fiscalConditions as [string, ...string[]])
    .nullish()
    .transform((value) => value ?? null),
  bankName: optionalText(120),
  /** CBU, IBAN or account number. */
  bankAccount: optionalText(60),
  /** Alias, SWIFT/BIC or bank key. */
  bankKey: optionalText(60),
  currency: z.enum(currencies),
  contactName: optionalText(120),
  commercialAddress: optionalText(300),
  phoneAreaBussines: phoneArea(),
  phoneBusiness: optionalPhone(),
  phoneMobile: optionalPhone(),
  email: optionalEmail(),
  /** Days from a document's date to its due date when the paper does not say one. */
  paymentTermDays: wholeNumber(0, 365).default(30),
  notes: optionalText(2000),
  active: z.boolean().default(true),
};

export const providerSchema = named(
  'Provider',
  z.object({
    id: idSchema,
    nif: z.string().nullable(),
    taxIdKind: z.enum(taxIdKinds).nullable(),
    fantasyName: z.string(),
    bussinesName: z.string().nullable(),
    companyName: z.string().nullable(),
    fiscalCondition: z.string().nullable(),
    bankName: z.string().nullable(),
    bankAccount: z.string().nullable(),
    bankKey: z.string().nullable(),
    currency: z.enum(currencies),
    contactName: z.string().nullable(),
    commercialAddress: z.string().nullable(),
    phoneAreaBussines: z.string().nullable(),
    phoneBusiness: z.string().nullable(),
    phoneMobile: z.string().nullable(),
    email: z.string().nullable(),
    paymentTermDays: z.number().int(),
    notes: z.string().nullable(),
    active: z.boolean(),
    /** Whether any document or payment names it: then it is deactivated, never deleted. */
    hasDocuments: z.boolean(),
    ...recordStampsSchema,
  }),
);
export type Provider = z.infer<typeof providerSchema>;

export const providerContracts = recordContracts('provider', providerFields, providerSchema, {
  refine: (value, ctx) => refineTaxId(value, ctx, { kind: 'taxIdKind', id: 'nif' }),
});
export type ProviderInput = z.input<typeof providerContracts.create>;

export const providerSortColumns = ['fantasyName', 'nif', 'updatedAt'] as const;
export const providerListQuerySchema = listQuerySchema(providerSortColumns).extend({
  /** 'true' active only, 'false' inactive only; absent: all. */
  active: z.enum(['true', 'false']).optional(),
});
export type ProviderListQuery = z.output<typeof providerListQuerySchema>;
/** GET /api/providers/export.csv: the list's filters without paging. */
export const providerExportQuerySchema = providerListQuerySchema.omit({ page: true, pageSize: true });

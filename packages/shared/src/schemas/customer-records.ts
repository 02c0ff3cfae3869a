import { z } from 'zod';
import { named } from '../api-schema.ts';
import { customerKinds, fiscalConditions, fiscalCountries } from '../commercial.ts';
import { languages } from '../enums.ts';
import { taxIdKinds } from '../tax-ids.ts';
import { optionalEmail, optionalPhone, optionalText, requiredText, wholeNumber } from '../validation.ts';
import { fiscalPartyAnswerFields, refineTaxId, taxIdField } from './clinic-fiscal.ts';
import { idSchema, listQuerySchema } from './common.ts';
import { recordContracts, recordStampsSchema } from './records.ts';

/**
 * The clinic's customers (issue 18): /api/customers. Companies and insurers (obras sociales,
 * mutuas, prepagas) are made here with their fiscal data; a patient's row is made on first
 * billing and only its billing data (tax id, fiscal condition, address, terms) are edited here —
 * its kind stays 'patient' and its name, e-mail and language follow the patient. The tax id is
 * checked for its kind (CUIT, NIF, CNPJ…) and unique among the clinic's companies and insurers:
 * 409 customer_tax_id_exists naming the holder. A customer any document or collection names is
 * deactivated, never deleted (409 customer_has_documents); a patient's row is never deleted
 * (409 customer_is_patient).
 */

export const customerFields = {
  /** company | insurer on create; a patient's row keeps 'patient' whatever is sent. */
  kind: z.enum(customerKinds, { error: (issue) => (issue.input == null ? 'required' : 'invalid_value') }),
  name: requiredText(160),
  tradeName: optionalText(160),
  country: z
    .enum(fiscalCountries)
    .nullish()
    .transform((value) => value ?? null),
  taxIdKind: z
    .enum(taxIdKinds)
    .nullish()
    .transform((value) => value ?? null),
  taxId: taxIdField(),
  fiscalCondition: z
    .enum(fiscalConditions as [string, ...string[]])
    .nullish()
    .transform((value) => value ?? null),
  address: optionalText(300),
  city: optionalText(120),
  province: optionalText(120),
  postalCode: optionalText(20),
  email: optionalEmail(),
  phone: optionalPhone(),
  /** The language of its documents, statements and e-mails. */
  language: z.enum(languages).default('es'),
  /** Days from an invoice on current account to its due date. */
  paymentTermDays: wholeNumber(0, 365).default(0),
  notes: optionalText(2000),
  active: z.boolean().default(true),
};

export const customerRecordSchema = named(
  'Customer',
  z.object({
    id: idSchema,
    kind: z.enum(customerKinds),
    patientId: z.uuid().nullable(),
    name: z.string(),
    ...fiscalPartyAnswerFields,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    language: z.enum(languages),
    paymentTermDays: z.number().int(),
    notes: z.string().nullable(),
    active: z.boolean(),
    /** Whether a document or a collection names it: then it is deactivated, never deleted. */
    hasDocuments: z.boolean(),
    ...recordStampsSchema,
  }),
);
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

export const customerRecordContracts = recordContracts('customer', customerFields, customerRecordSchema, {
  refine: (value, ctx) => refineTaxId(value, ctx, { kind: 'taxIdKind', id: 'taxId' }),
});
export type CustomerRecordInput = z.input<typeof customerRecordContracts.create>;

export const customerSortColumns = ['name', 'taxId', 'updatedAt'] as const;
/** GET /api/customers: search as you type (name, trade name, tax id, e-mail, phone), kind, active, sort. */
export const customerListQuerySchema = listQuerySchema(customerSortColumns).extend({
  kind: z.enum(customerKinds).optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type CustomerListQuery = z.output<typeof customerListQuerySchema>;

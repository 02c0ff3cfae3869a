import { z } from 'zod';
import { moneyText, named } from '../api-schema.ts';
import { customerKinds } from '../commercial.ts';
import { searchText } from '../validation.ts';
import { idSchema } from './common.ts';

/**
 * Who a sale or a collection bills (issue 18): GET /api/customers/lookup searches, as you type,
 * the clinic's patients and its companies and insurers in one list. A patient not billed yet has
 * no customer row (`customerId` null): the sale or collection names the patient, and the server
 * makes the row. Each result carries what the form shows beside it: the balance (what the
 * customer owes) and the credit on account (collections not yet allocated).
 */

export const customerLookupQuerySchema = z.object({
  q: searchText().optional(),
  limit: z.coerce.number().int().min(1).max(30).default(10),
});
export type CustomerLookupQuery = z.infer<typeof customerLookupQuerySchema>;

export const customerLookupItemSchema = named(
  'CustomerLookupItem',
  z.object({
    customerId: idSchema.nullable(),
    patientId: idSchema.nullable(),
    kind: z.enum(customerKinds),
    name: z.string(),
    /** The patient's clinic number and ID document, or the company's tax id. */
    detail: z.string().nullable(),
    email: z.string().nullable(),
    language: z.string(),
    active: z.boolean(),
    /** What the customer owes (debits − credits of the ledger), '0.00' when never billed. */
    balance: moneyText(),
    /** Collections not yet allocated to a document. */
    onAccount: moneyText(),
  }),
);
export type CustomerLookupItem = z.infer<typeof customerLookupItemSchema>;

export const customerLookupAnswerSchema = z.object({ data: z.array(customerLookupItemSchema) });

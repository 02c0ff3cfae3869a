import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { safeText } from '../validation.ts';
import { idSchema, maxPageSize, pageSchema } from './common.ts';

/**
 * What every versioned, soft-deleted record of a clinic shares (docs/adding-a-domain.md): its
 * route parameters, stamps, the version of an edit, a page of its list, its "history of changes",
 * and the set of contracts a record's routes answer. A domain's file then only states its fields.
 */

/** /api/patients/:patientId/<records> */
export const patientParamsSchema = z.object({ patientId: idSchema });
/** /api/patients/:patientId/<records>/:id */
export const patientRecordParamsSchema = z.object({ patientId: idSchema, id: idSchema });
/** /api/<records>/:id */
export const recordParamsSchema = z.object({ id: idSchema });

/** The version the edit started from (409 `version_conflict`, with details.current, when stale). */
export const versionField = z.number().int().min(1);

/** Who created and last changed a record, and when. */
export const recordStampsSchema = {
  createdAt: instantText(),
  createdByName: z.string().nullable(),
  updatedAt: instantText(),
  updatedByName: z.string().nullable(),
  version: z.number().int(),
};

/** A page of a list without search or sort (a patient's records: newest first). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(20),
});
export type PageQuery = z.output<typeof pageQuerySchema>;

/** One version of a record in its "history of changes": who, when, what changed. */
export const recordChangeSchema = z.object({
  id: z.uuid(),
  action: z.string(),
  userId: z.uuid().nullable(),
  userName: z.string().nullable(),
  createdAt: instantText(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /**
   * The names of the records its values name, by id (a professional, a patient, a treatment, a
   * chair…), so the history shows names, never UUIDs.
   */
  labels: z.record(z.string(), z.string()).optional(),
});
export type RecordChange = z.infer<typeof recordChangeSchema>;
/** GET …/:id/changes: the record's audit events, newest first. */
export const recordChangesPageSchema = pageSchema(recordChangeSchema);
export const recordChangesQuerySchema = pageQuerySchema;

/**
 * The contracts of a record's usual routes, from its name, its fields and what it answers:
 * create (the fields), update (the fields and the version), one (`{ data, code? }` with
 * `<name>_created` / `<name>_updated`), a page, and delete (`{ code: <name>_deleted }`).
 * `refine` checks the fields together (a result date not before the order date …) on create and update.
 */
export function recordContracts<const TName extends string, TFields extends z.ZodRawShape, TRecord extends z.ZodType>(
  name: TName,
  fields: TFields,
  record: TRecord,
  options: { refine?: (value: z.output<z.ZodObject<TFields>>, ctx: z.RefinementCtx) => void } = {},
) {
  const { refine } = options;
  const create = z.object(fields);
  const update = z.object({ ...fields, version: versionField });
  return {
    name,
    create: refine ? create.superRefine(refine) : create,
    // An edit's value has the fields (and its version): the same check applies.
    update: refine
      ? update.superRefine(refine as (value: z.output<typeof update>, ctx: z.RefinementCtx) => void)
      : update,
    one: z.object({
      data: record,
      code: z.enum([`${name}_created`, `${name}_updated`] as [`${TName}_created`, `${TName}_updated`]).optional(),
    }),
    page: pageSchema(record),
    deleted: z.object({ code: z.literal(`${name}_deleted` as `${TName}_deleted`) }),
  };
}

/**
 * GET /api/<documents>/by-code/:code: the verification code printed on a patient's document
 * (upper-cased, spaces trimmed), of the document's `pattern`.
 */
export function byCodeParamsSchema(pattern: RegExp) {
  return z.object({
    code: safeText()
      .trim()
      .transform((value) => value.toUpperCase())
      .refine((value) => pattern.test(value), 'invalid_format'),
  });
}

/** What the front desk sees of a document found by its code: the document and its patient. */
export function byCodeResponseSchema<TShape extends z.ZodRawShape>(document: z.ZodObject<TShape>) {
  return z.object({ data: document.extend({ patientName: z.string(), patientSsn: z.string().nullable() }) });
}

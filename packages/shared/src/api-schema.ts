import { z } from 'zod';

/**
 * What the OpenAPI document says about a contract beyond its zod type (issue 35): a record's
 * component name (`id`: `components.schemas.Patient`, referenced with $ref), a string's `format`
 * (date, date-time) or `pattern` (decimals), a description. The API's document is generated
 * with this registry (apps/api/src/plugins/openapi.ts); it changes nothing a schema accepts.
 *
 * A registry of its own rather than zod's global one: a module loaded twice (a test runner, the
 * web's hot reload) builds a second registry instead of colliding on a component name.
 */
export interface ApiSchemaMeta {
  id?: string;
  format?: 'date' | 'date-time' | 'binary';
  pattern?: string;
  description?: string;
}

export const apiSchemaRegistry = z.registry<ApiSchemaMeta>();

/** Documents `schema` (returns it, so a contract reads `documented(z.object({…}), { id: 'Patient' })`). */
export function documented<T extends z.ZodType>(schema: T, meta: ApiSchemaMeta): T {
  apiSchemaRegistry.add(schema, meta);
  return schema;
}

/** A record's named schema: `components.schemas.<id>` in the OpenAPI document. */
export function named<T extends z.ZodType>(id: string, schema: T): T {
  return documented(schema, { id });
}

/** A calendar date as answered: 'YYYY-MM-DD' (`format: date`). */
export const dateText = () => documented(z.string(), { format: 'date' });

/** An instant as answered: ISO 8601 in UTC, '2026-03-01T13:30:00.000Z' (`format: date-time`). */
export const instantText = () => documented(z.string(), { format: 'date-time' });

/** A money amount as answered: a decimal string with two decimals, a point, no grouping; negative for a balance owed the other way. */
export const moneyPattern = '^-?[0-9]+\\.[0-9]{2}$';
export const moneyText = () =>
  documented(z.string(), {
    pattern: moneyPattern,
    description: "A money amount as a decimal string: two decimals, a point, no grouping ('1234.50', '-20.00').",
  });

/** A decimal as answered (a quantity, a rate, a cost): a point, no grouping, as many decimals as it has. */
export const decimalPattern = '^-?[0-9]+(\\.[0-9]+)?$';
export const decimalText = () =>
  documented(z.string(), {
    pattern: decimalPattern,
    description: "A decimal number as a string: a point, no grouping ('3', '10.5', '0.125').",
  });

/** A file answered as bytes (a PDF, an image, a CSV): `type: string, format: binary`. */
export const binaryFile = () => documented(z.string(), { format: 'binary' });

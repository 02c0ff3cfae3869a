import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { maxStockQuantity } from '@odontia/shared/schemas/inventory';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestClinic, setLevel, type TestClinic, testPassword } from './clinics.ts';
import { MemoryMailer } from './mail.ts';
import { photoUpload } from './multipart.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { availableBackends, type Backend } from './test-database.ts';

/**
 * A property-based walk of every operation of the OpenAPI document (issue 14): generated hostile
 * path ids, queries and bodies (NUL, lone surrogates, huge strings, emoji, absurd dates, wrong
 * types, negative and huge numbers, another clinic's ids, malformed uuids, broken JSON), signed
 * in as an administrator of a clinic with one record of every kind. It fails on any 5xx and on
 * any answer that shows SQL, a stack trace or a path of the server's disk.
 *
 * Bounded and seeded: FUZZ_RUNS generated requests per operation (default 3) after a fixed set of
 * hostile examples per operation; FUZZ_SECONDS caps the generated runs of the whole walk (each
 * operation gets its share); FUZZ_SEED replays a run (default 14); FUZZ_BACKEND picks one
 * database ('pglite' or 'postgres'; default: PGlite, and PostgreSQL too when DATABASE_URL is set);
 * FUZZ_STATS=1 prints how each operation answered, FUZZ_DEBUG='POST /api/patients' every request
 * of one operation.
 * `FUZZ_RUNS=200 FUZZ_BACKEND=postgres DATABASE_URL=… npx vitest run --project integration
 * apps/api/test/fuzz.int.test.ts` walks longer (the CI does).
 */

const runs = Number(process.env.FUZZ_RUNS ?? 3);
/** A time budget for the generated runs of the whole walk (FUZZ_SECONDS), shared by the operations. */
const budgetSeconds = Number(process.env.FUZZ_SECONDS ?? 0);
const seed = Number(process.env.FUZZ_SEED ?? 14);
const backends: Backend[] = process.env.FUZZ_BACKEND ? [process.env.FUZZ_BACKEND as Backend] : availableBackends();

// ———————————————————————————————————————————— the OpenAPI document

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  const?: unknown;
}

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path: /api/patients/{patientId} */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
  /** A write that requires an `Idempotency-Key`: each request sends a fresh one, so the walk reaches its handler. */
  idempotent: boolean;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
}

/**
 * Operations that would end the walk's own session: it goes on signed in. (The lock screen and
 * sign-out are tested in auth.int.test.ts.)
 */
const sessionEnders = new Set(['POST /api/auth/sign-out', 'POST /api/auth/lock']);

function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const upper = method.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      if (sessionEnders.has(`${upper} ${route}`)) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: upper,
        path: route,
        pathParams: [...route.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
        query: parameters.filter((parameter) => parameter.in === 'query'),
        idempotent: parameters.some(
          (parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key' && parameter.required,
        ),
        // Multipart uploads are walked with JSON bodies too: they must answer 4xx.
        body: operation.requestBody?.content['application/json']?.schema ?? (upper === 'POST' ? {} : undefined),
      });
    }
  }
  return operations;
}

// The document does not depend on the database: read it once, to name one test per operation.
const operations = await (async () => {
  const probe = await createTestApp({ backend: 'pglite' });
  try {
    return operationsOf(probe.app.swagger() as unknown as OpenApiDocument);
  } finally {
    await probe.close();
  }
})();

// ———————————————————————————————————————————— hostile values

const hugeText = 'Ñ'.repeat(70_000);
const hostileStrings = [
  '',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '01234567-89ab-7def-8123-456789abcdef',
  ' ',
  '\u0000',
  'Ana\u0000Belén',
  '\ud800',
  'muela \udfff',
  '\ude00\ud83d',
  '😁'.repeat(3000),
  '👩🏽‍⚕️🦷',
  '\u202eolleh',
  '\ufeffBOM',
  'línea\r\nlínea\ttab',
  hugeText,
  "O'Brien",
  "' OR '1'='1",
  'Robert"); DROP TABLE patients;--',
  '%',
  '_',
  '\\',
  '%00',
  '{{patient}} {{nope}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'C:\\Windows\\win.ini',
  'null',
  'true',
  '[]',
  '{}',
  '-1',
  '0',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9'.repeat(400),
  '0.000000001',
  '12,50',
  '0000-01-01',
  '0000-00-00',
  '9999-12-31',
  '1899-12-31',
  '3000-01-01',
  '2026-02-30',
  '+275760-09-13',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '1969-12-31T23:59:59.999-14:00',
  '2026-03-29T02:30:00+01:00',
  '2026-01-01T00:00:00',
  'RX-ABCD-EFGH',
  'rx-2345-6789',
];
const malformedIds = [
  'not-a-uuid',
  '123',
  '0',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '01234567-89ab-7def-8123-456789abcdef',
  '01234567-89AB-7DEF-8123-456789ABCDEF',
  '01234567-89ab-7def-8123-456789abcdef0',
  '{01234567-89ab-7def-8123-456789abcdef}',
];
/** Raw (already encoded) path and query fragments: bytes that are not UTF-8, NUL, traversal. */
const rawFragments = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%80',
  '%FF%FE',
  '%E2%82',
  '%',
  '%zz',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..',
  '%F0%9F%98%81',
  'x'.repeat(3000),
];

/** Percent-encodes a string as UTF-8 (a lone surrogate becomes U+FFFD, as a browser would send it). */
function encode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// ———————————————————————————————————————————— generators from the schemas

interface Ids {
  [collection: string]: string[];
}

interface Pools {
  ours: Ids;
  theirs: Ids;
}

const anyHostileString = fc.constantFrom(...hostileStrings);
const randomText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }),
);
/** Valid instants from `from` to `to` (ISO), as they go over the wire. */
const instantsBetween = (from: string, to: string) =>
  fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true }).map((date) => date.toISOString());
const validInstant = instantsBetween('1890-01-01T00:00:00Z', '2040-12-31T00:00:00Z');
const validDay = validInstant.map((instant) => instant.slice(0, 10));
const plausibleDay = instantsBetween('1950-01-01T00:00:00Z', '2026-01-01T00:00:00Z').map((instant) =>
  instant.slice(0, 10),
);
const plausibleInstant = instantsBetween('2020-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(['\u0000']),
  fc.constant(JSON.parse('{"__proto__":{"level":"administrator"}}')),
  anyHostileString,
);
const hostileNumber = fc.constantFrom(
  -1,
  0,
  0.5,
  -0.5,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
);

/** The collection a path parameter names: `{id}` after `diagnoses` is a diagnosis. */
function collectionOf(operation: Operation, param: string): string {
  if (param === 'patientId') return 'patients';
  if (param === 'entryId') return 'entries';
  if (param === 'code' || param === 'token') return param;
  const segments = operation.path.split('/');
  const at = segments.indexOf(`{${param}}`);
  return segments[at - 1] ?? param;
}

function idFrom(pools: Pools, collection: string): fc.Arbitrary<string> {
  const ours = pools.ours[collection] ?? [];
  const theirs = pools.theirs[collection] ?? [];
  const everyId = [...Object.values(pools.ours).flat(), ...Object.values(pools.theirs).flat()];
  return fc.oneof(
    ...(ours.length > 0 ? [{ weight: 12, arbitrary: fc.constantFrom(...ours) }] : []),
    ...(theirs.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...theirs) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...everyId) },
    { weight: 1, arbitrary: fc.uuid({ version: 7 }) },
    { weight: 1, arbitrary: fc.constantFrom(...malformedIds) },
  );
}

/** A value that a form of the product could send for this field (often valid, sometimes not). */
function plausibleString(name: string, schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.format === 'uuid' || /Id$/.test(name)) {
    const collection =
      {
        professionalId: 'professionals',
        supplyId: 'supplies',
        templateId: 'authorization-templates',
        itemId: 'items',
        medicationId: 'medications',
      }[name] ?? `${name.replace(/Id$/, '')}s`;
    const ours = pools.ours[collection] ?? [];
    return ours.length > 0 ? fc.constantFrom(...ours) : idFrom(pools, collection);
  }
  if (/email/i.test(name)) return fc.nat(99_999).map((n) => `persona.${n}@clinica.test`);
  if (/phoneArea/.test(name)) return fc.constantFrom('+54', '34', '');
  if (/phone|contact/i.test(name)) return fc.constantFrom('+54 11 4444-5555', '(011) 4567-8901', '600 123 456');
  // The walk's own password: a successful change keeps it, so the walk can always sign in again.
  if (/password/i.test(name)) return fc.constant(testPassword);
  if (/^(chartedAt|at|instant)$/.test(name)) return plausibleInstant;
  if (isDateName(name)) return plausibleDay;
  if (name === 'icd10Code') return fc.constantFrom('K02.1', 'A00', 'k08');
  if (name === 'barCode') return fc.constantFrom('7790001234567', 'ABC-123.4');
  if (name === 'body') return fc.constantFrom('Yo, {{patient}}, autorizo {{treatment}}.', 'Texto sin marcadores');
  if (name === 'content') {
    return fc
      .nat(99_999)
      .map(
        (n) =>
          `Nombre;SKU;Precio de costo;Precio de venta;Impuesto (%);Stock;Stock mínimo;Punto de pedido\nIbuprofeno ${n};IBU-${n};10;15,50;21;5;1;2\n`,
      );
  }
  if (/^(page|pageSize)$/.test(name)) return fc.integer({ min: 1, max: 100 }).map(String);
  const max = Math.min(schema.maxLength ?? 60, 60);
  return fc.string({ unit: 'grapheme', minLength: Math.min(schema.minLength ?? 0, max), maxLength: max });
}

/** Fields whose valid values depend on each other or on stored data: a known good value. */
const plausibleByName: Record<string, (pools: Pools) => fc.Arbitrary<unknown>> = {
  minStock: () => fc.constantFrom(0, 1),
  reorderStock: () => fc.constantFrom(2, 5),
  maxStock: () => fc.constantFrom(null, 100),
  marks: () =>
    fc.constantFrom(
      [{ tooth: 16, zone: 'occlusal', status: 'caries', notes: 'Profunda' }],
      [{ tooth: 36, zone: null, status: 'crown' }],
    ),
  signature: (pools) => fc.constantFrom(...(pools.ours.signature ?? [''])),
  approvalStatus: () => fc.constantFrom('underReview', 'approved'),
  // After any order date the walk writes (1950–2025).
  resultDate: () => fc.constantFrom(null, '2026-03-02'),
  // Each item once in an attendance.
  supplies: (pools) => fc.constantFrom([], [{ itemId: pools.ours.supplies?.[0], quantity: 1 }]),
  medications: (pools) => fc.constantFrom([], [{ itemId: pools.ours.medications?.[0], quantity: 1 }]),
};

/** Ids that are not what the field expects: another clinic's, another kind's, unknown, malformed. */
function strangeId(pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...Object.values(pools.theirs).flat()),
    fc.constantFrom(...Object.values(pools.ours).flat()),
    fc.uuid({ version: 7 }),
    fc.constantFrom(...malformedIds),
  );
}

/** A hostile or random string. */
const hostileString = fc.oneof(
  { weight: 6, arbitrary: anyHostileString },
  { weight: 2, arbitrary: randomText },
  { weight: 1, arbitrary: fc.oneof(validDay, validInstant) },
);

/** A string field: plausible most of the time, hostile otherwise. */
function stringFor(name: string, schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: plausibleString(name, schema, pools) },
    { weight: 2, arbitrary: hostileString },
  );
}

/** Any value of the wrong kind, or a hostile one of the right kind. */
function hostileValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return fc.oneof(
    { weight: 2, arbitrary: wrongType },
    { weight: type === 'integer' || type === 'number' ? 3 : 0, arbitrary: hostileNumber },
    { weight: type === 'string' || type === undefined ? 4 : 1, arbitrary: hostileString },
  );
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/**
 * A value that looks like what the web app sends: every property of an object present (optional
 * ones half of the time), numbers within their bounds. The walk then breaks one field of it, so
 * most requests pass every other check and reach the service and the database.
 */
function plausibleFor(name: string, schema: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  const known = plausibleByName[name];
  if (known) return known(pools);
  // Issue 35: amounts at the edge of what the columns hold (twelve digits, as typed in es-AR too),
  // so a line × quantity or a document's total overflows unless the contracts bound it.
  if (/price|cost|fee|rate|amount/i.test(name)) {
    return fc.constantFrom(
      '0',
      '12.50',
      '12,5',
      '100',
      7,
      '999999999999.99',
      '500000000000',
      '12.500,50',
      '300.000,00',
    );
  }
  if (name === 'quantity') return fc.constantFrom(1, 2, 999_999, maxStockQuantity);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0) {
    return fc.oneof(...variants.map((variant) => plausibleFor(name, variant, pools, depth)));
  }
  if (schema.allOf?.[0]) return plausibleFor(name, schema.allOf[0], pools, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = typeOf(schema);
  if (schema.enum && type !== 'string') return fc.constantFrom(...schema.enum);
  switch (type) {
    case 'string':
      return plausibleString(name, schema, pools);
    case 'integer': {
      if (/^(teeth|tooth)$/.test(name)) return fc.constantFrom(11, 16, 21, 36, 48, 55, 85);
      if (name === 'version') return fc.constantFrom(1, 1, 2);
      const min = Math.max(schema.minimum ?? 0, -1000);
      return fc.integer({ min, max: Math.max(min, Math.min(schema.maximum ?? 100, 100)) });
    }
    case 'number':
      return fc.integer({ min: 0, max: 1000 });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = Math.min(schema.minItems ?? 0, 3);
      return fc.array(plausibleFor(name, schema.items ?? {}, pools, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const properties = schema.properties ?? {};
      for (const [key, property] of Object.entries(properties)) {
        // An attendance's date is an instant; every other record's date is a day.
        const kind =
          key === 'date' && 'attendanceType' in properties
            ? 'instant'
            : key === 'itemId' && (name === 'supplies' || name === 'medications')
              ? `${name === 'supplies' ? 'supply' : 'medication'}Id`
              : key;
        model[key] = plausibleFor(kind, property, pools, depth + 1);
      }
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
    }
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  }
}

/** The leaves of a JSON value, as paths: ['lines', 0, 'medicine']. */
function leafPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) {
    return value.length === 0 ? [at] : value.flatMap((item, index) => leafPaths(item, [...at, index]));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? [at] : entries.flatMap(([key, item]) => leafPaths(item, [...at, key]));
  }
  return [at];
}

/** `value` with the leaf at `path` replaced (a new value; the input is left alone). */
function replaced(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaced(item, rest, leaf) : item));
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaced(record[head], rest, leaf) };
}

/**
 * A body or query: plausible, plausible with one or two fields broken (the most useful: the
 * rest is valid, so the broken field reaches as far as it can), or built from hostile parts.
 */
function valueFor(name: string, schema: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  const plausible = plausibleFor(name, schema, pools, depth);
  const broken = (times: number) =>
    fc
      .tuple(
        plausible,
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.oneof({ weight: 4, arbitrary: hostileValue({}) }, { weight: 1, arbitrary: strangeId(pools) }),
          ),
          {
            minLength: times,
            maxLength: times,
          },
        ),
      )
      .map(([value, breaks]) =>
        breaks.reduce((current, [pick, leaf]) => {
          const paths = leafPaths(current);
          return replaced(current, paths[pick % paths.length] ?? [], leaf);
        }, value),
      );
  return fc.oneof(
    { weight: 5, arbitrary: plausible },
    { weight: 6, arbitrary: broken(1) },
    { weight: 2, arbitrary: broken(2) },
    { weight: 2, arbitrary: wildFor(name, schema, pools, depth) },
    { weight: 1, arbitrary: hostileValue(schema) },
  );
}

/** Every part hostile or random, shaped like the schema. */
function wildFor(name: string, schema: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0)
    return fc.oneof(...variants.map((variant) => wildFor(name, variant, pools, depth)));
  const type = typeOf(schema);
  const nullable = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 8, arbitrary },
      { weight: schema.nullable ? 1 : 0, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: wrongType },
    );
  switch (type) {
    case 'string':
      return nullable(stringFor(name, schema, pools));
    case 'integer':
    case 'number':
      return nullable(fc.oneof(fc.integer(), hostileNumber, fc.double({ noNaN: true })));
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const items = wildFor(name, schema.items ?? {}, pools, depth + 1);
      return nullable(
        fc.oneof(
          { weight: 8, arbitrary: fc.array(items, { maxLength: 3 }) },
          { weight: 1, arbitrary: fc.array(items, { minLength: 101, maxLength: 120 }) },
        ),
      );
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        model[key] = wildFor(key, property, pools, depth + 1);
      }
      const record = fc.record(model, { requiredKeys: [] });
      const extraKeys = fc.dictionary(fc.oneof(anyHostileString, randomText), wrongType, { maxKeys: 2 });
      return fc.tuple(record, extraKeys).map(([known, extra]) => ({ ...extra, ...known }));
    }
    default:
      return nullable(fc.oneof(fc.boolean(), wrongType));
  }
}

// ———————————————————————————————————————————— one request

interface FuzzRequest {
  params: Record<string, string>;
  query: string;
  body: { json: unknown } | { raw: string } | undefined;
  contentType: string | undefined;
  auth: 'ours' | 'theirs' | 'none' | 'garbage';
  remoteAddress: string;
}

const rawBodies = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"texto"',
  '123',
  '1e999999',
  '\ufeff{}',
  '{"__proto__":{"level":"administrator"}}',
  '{"constructor":{"prototype":{"level":"administrator"}}}',
  '['.repeat(20_000) + ']'.repeat(20_000),
  `{"a":"${'x'.repeat(1_100_000)}"}`,
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
];

/** An id of the right collection (ours mostly), or the string a token or code parameter expects. */
function plausiblePathValue(operation: Operation, param: string, pools: Pools): fc.Arbitrary<unknown> {
  const collection = collectionOf(operation, param);
  return pools.ours[collection] ? idFrom(pools, collection) : plausibleString(param, {}, pools);
}

function pathValue(operation: Operation, param: string, pools: Pools): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: plausiblePathValue(operation, param, pools) },
    { weight: 1, arbitrary: hostileString },
  );
  return fc.oneof(
    { weight: 8, arbitrary: value.map((item) => encode(typeof item === 'string' ? item : JSON.stringify(item))) },
    { weight: 2, arbitrary: fc.constantFrom(...rawFragments) },
  );
}

/** The query parameters as the properties of one object. */
function queryObjectSchema(operation: Operation): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(operation.query.map((parameter) => [parameter.name, parameter.schema])),
  };
}

/** `a=1&b=x`: strings as they are, anything else as JSON, every byte UTF-8 percent-encoded. */
function writeQuery(query: unknown): string {
  const write = (value: unknown) => encode(typeof value === 'string' ? value : JSON.stringify(value));
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return `q=${write(query)}`;
  return Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encode(name)}=${write(value)}`)
    .join('&');
}

/** The query as one object (so one parameter at a time is broken), with raw fragments at times. */
function queryFor(operation: Operation, pools: Pools): fc.Arbitrary<string> {
  const names = operation.query.map((parameter) => parameter.name);
  const extra = fc.oneof(
    { weight: 10, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom(...rawFragments).map((fragment) => `${names[0] ?? 'x'}=${fragment}`) },
    // The same parameter twice arrives as an array.
    { weight: 1, arbitrary: fc.constant(names[0] ? `${names[0]}=a&${names[0]}=b` : 'x=a&x=b') },
  );
  return fc
    .tuple(valueFor('query', queryObjectSchema(operation), pools, 0), extra)
    .map(([query, more]) => [writeQuery(query), more].filter(Boolean).join('&'));
}

function requestFor(operation: Operation, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const param of operation.pathParams) params[param] = pathValue(operation, param, pools);
  const body: fc.Arbitrary<FuzzRequest['body']> = operation.body
    ? fc.oneof(
        { weight: 10, arbitrary: valueFor('body', operation.body, pools, 0).map((json) => ({ json })) },
        { weight: 1, arbitrary: fc.constantFrom(...rawBodies).map((raw) => ({ raw })) },
      )
    : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant({ json: {} }) });
  return fc.record({
    params: fc.record(params),
    query: queryFor(operation, pools),
    body,
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/json; charset=latin1', 'application/xml'),
      },
    ),
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant('ours' as const) },
      { weight: 1, arbitrary: fc.constantFrom('theirs' as const, 'none' as const, 'garbage' as const) },
    ),
    remoteAddress: fc.ipV4().filter((address) => address !== '127.0.0.1'),
  });
}

/** The hostile texts every string field gets once per walk, whatever the generated runs do. */
const classicTexts = ['Ana\u0000Belén', 'Ana\ud800', '\udc00', '😁'.repeat(5000)];
const classicDates = ['0000-01-01', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z'];
const isDateName = (name: string | number | undefined) =>
  typeof name === 'string' && /date|At$|On$|^at$|nextAppointment/i.test(name);

/**
 * Deterministic requests: one plausible request (the same for a seed), then each of its string
 * fields in turn (body, query, path) set to a classic hostile text, and each date field to a
 * year-0 or year-9999 date. Every field of every operation is hit, not only the ones a random
 * run happens to pick.
 */
function classicRequests(operation: Operation, pools: Pools): FuzzRequest[] {
  const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { seed, numRuns: 1 })[0] as T;
  const params: Record<string, string> = {};
  for (const param of operation.pathParams) {
    const ours = pools.ours[collectionOf(operation, param)]?.[0];
    params[param] = encode(ours ?? String(sample(plausiblePathValue(operation, param, pools))));
  }
  const querySchema = queryObjectSchema(operation);
  const query = sample(plausibleFor('query', querySchema, pools, 0)) as Record<string, unknown>;
  const body = operation.body ? sample(plausibleFor('body', operation.body, pools, 0)) : undefined;
  const base: FuzzRequest = {
    params,
    query: writeQuery(query),
    body: operation.body ? { json: body } : undefined,
    contentType: 'application/json',
    auth: 'ours',
    remoteAddress: '10.14.0.1',
  };
  const variants: FuzzRequest[] = [];
  const hostileFor = (name: string | number | undefined, index: number) =>
    isDateName(name) ? classicDates : [classicTexts[index % classicTexts.length] as string];
  let index = 0;
  for (const path of leafPaths(body)) {
    const leaf = path.reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], body);
    if (typeof leaf !== 'string') continue;
    for (const text of hostileFor(path.at(-1), index++)) {
      variants.push({ ...base, body: { json: replaced(body, path, text) } });
    }
  }
  for (const name of Object.keys(querySchema.properties ?? {})) {
    for (const text of hostileFor(name, index++))
      variants.push({ ...base, query: writeQuery({ ...query, [name]: text }) });
  }
  for (const param of operation.pathParams) {
    for (const raw of ['%00', '%ED%A0%80', encode('😁'.repeat(100))]) {
      variants.push({ ...base, params: { ...params, [param]: raw } });
    }
  }
  // The plausible request itself last: a record it creates would make the variants duplicates.
  return [...variants, base];
}

// ———————————————————————————————————————————— what no answer may show

const leaks: [string, RegExp][] = [
  [
    'SQL',
    /syntax error at or near|violates [\w ]*constraint|duplicate key value|relation "|column "|invalid input (syntax|value)|current transaction is aborted|SQLSTATE|pg_catalog|drizzle|out of range for type|\bERROR:/i,
  ],
  ['a stack trace', /\n\s+at |\bat [\w$.<>]+ \(|node:internal|\.ts:\d+:\d+|\.js:\d+:\d+/],
  [
    'a path of the server',
    new RegExp(`node_modules|file://|${literally(process.cwd())}|${literally(path.join(os.tmpdir(), 'odontia-'))}`),
  ],
];

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function problemOf(response: LightMyRequestResponse): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}`;
  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('json') && !type.includes('text')) return undefined;
  for (const [what, pattern] of leaks) {
    if (pattern.test(response.body)) return `shows ${what}`;
  }
  return undefined;
}

// ———————————————————————————————————————————— the walk

/** FUZZ_STATS=1 prints how each operation answered: a walk that only ever gets 400s is no walk. */
const answers = new Map<string, Map<number, number>>();
function countAnswer(operation: Operation, response: LightMyRequestResponse) {
  const key = `${operation.method} ${operation.path}`;
  const counts = answers.get(key) ?? new Map<number, number>();
  counts.set(response.statusCode, (counts.get(response.statusCode) ?? 0) + 1);
  answers.set(key, counts);
}
function statistics(): string {
  return [...answers]
    .map(
      ([key, counts]) =>
        `${key}: ${[...counts]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}`,
    )
    .join('\n');
}

describe.each(backends)('fuzz of every API operation on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let other: TestClinic;
  const pools: Pools = { ours: {}, theirs: {} };
  const mailer = new MemoryMailer();

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    app = testApp.app;
    clinic = await createTestClinic(app, mailer);
    other = await createTestClinic(app, mailer);
    pools.ours = await seedClinic(app, clinic);
    pools.theirs = await seedClinic(app, other);
  }, 120_000);
  afterAll(async () => {
    await testApp?.close();
    if (process.env.FUZZ_STATS) console.log(statistics());
  });

  // A walk may demote or deactivate its own user, change its language…: each operation starts
  // as an active administrator with a working session.
  beforeEach(async () => {
    await setLevel(testApp.db, clinic.userId, 'administrator');
    const me = await app.inject({ method: 'GET', url: '/api/auth/system/me', headers: bearer(clinic.token) });
    if (me.statusCode === 200 && !me.json().data.locked) return;
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: clinic.email, password: testPassword },
    });
    expect(signIn.statusCode, `signing in again: ${signIn.body}`).toBe(200);
    clinic.token = signIn.json().data.token;
  });

  async function send(operation: Operation, request: FuzzRequest): Promise<LightMyRequestResponse> {
    const pathname = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => request.params[name] ?? '');
    const headers: Record<string, string> = {};
    if (request.auth === 'ours') Object.assign(headers, bearer(clinic.token));
    if (request.auth === 'theirs') Object.assign(headers, bearer(other.token));
    if (request.auth === 'garbage') headers.authorization = `Bearer ${'é'.repeat(300)}`;
    if (request.contentType && request.body) headers['content-type'] = request.contentType;
    if (operation.idempotent) headers['idempotency-key'] = `fuzz-${randomUUID()}`;
    const payload =
      request.body === undefined
        ? undefined
        : 'raw' in request.body
          ? request.body.raw
          : JSON.stringify(request.body.json);
    return app.inject({
      method: operation.method,
      url: request.query ? `${pathname}?${request.query}` : pathname,
      headers,
      remoteAddress: request.remoteAddress,
      ...(payload === undefined ? {} : { payload }),
    });
  }

  function describeRequest(operation: Operation, request: FuzzRequest, response: LightMyRequestResponse): string {
    const shown = (value: unknown) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return text && text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text;
    };
    return [
      `${operation.method} ${operation.path}`,
      `params ${shown(request.params)} query ${shown(request.query)}`,
      `body ${shown(request.body)} (${request.contentType}, ${request.auth})`,
      `→ ${response.statusCode} ${shown(response.body)}`,
    ].join('\n');
  }

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    '%s never answers 5xx nor leaks',
    async (_name, operation) => {
      const check = async (request: FuzzRequest) => {
        const response = await send(operation, request);
        countAnswer(operation, response);
        if (process.env.FUZZ_DEBUG && `${operation.method} ${operation.path}` === process.env.FUZZ_DEBUG) {
          console.log(describeRequest(operation, request, response));
        }
        const problem = problemOf(response);
        if (problem) throw new Error(`${problem}:\n${describeRequest(operation, request, response)}`);
      };
      // The classic hostile inputs on every field, then generated requests.
      for (const request of classicRequests(operation, pools)) await check(request);
      try {
        await fc.assert(fc.asyncProperty(requestFor(operation, pools), check), {
          seed,
          numRuns: runs,
          endOnFailure: true,
          // With a budget, each operation walks until its share is spent (an interruption is no failure).
          ...(budgetSeconds > 0
            ? { interruptAfterTimeLimit: (budgetSeconds * 1000) / operations.length, markInterruptAsFailure: false }
            : {}),
        });
      } finally {
        // What a delete removed, the next operations need: a fresh record of every kind.
        if (operation.method === 'DELETE') pools.ours = await seedClinic(app, clinic);
      }
    },
    60_000 + (budgetSeconds > 0 ? (budgetSeconds * 1000) / operations.length : runs * 3_000),
  );
});

// ———————————————————————————————————————————— one record of every kind

let seeded = 0;
async function seedClinic(app: FastifyInstance, clinic: TestClinic): Promise<Ids> {
  seeded += 1;
  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url, headers: bearer(clinic.token), payload });
    if (response.statusCode !== 201) throw new Error(`seeding ${url}: ${response.statusCode} ${response.body}`);
    return response.json().data as { id: string } & Record<string, unknown>;
  };
  const patients = [
    (await post('/api/patients', { firstName: 'Lucía', lastName: 'Fernández', sex: 'female', birthdate: '1980-04-02' }))
      .id,
  ];
  const patient = `/api/patients/${patients[0]}`;
  const professionalId = clinic.userId;
  // A prescription carries the prescriber's licence (409 professional_license_required without it).
  const profile = await app.inject({
    method: 'PATCH',
    url: '/api/auth/system/me',
    headers: bearer(clinic.token),
    payload: { licenseNumber: 'MN 12345' },
  });
  if (profile.statusCode !== 200) throw new Error(`seeding the licence: ${profile.body}`);
  // Seeded again after a delete: the same names once more, on purpose.
  const stock = {
    costPrice: '10',
    basePrice: '15',
    taxRate: '21',
    minStock: 1,
    reorderStock: 2,
    totalStock: 50,
    allowSimilarName: true,
  };
  const medication = await post('/api/medications', {
    name: 'Amoxicilina 500 mg',
    approvalStatus: 'approved',
    ...stock,
  });
  const supply = await post('/api/supplies', { name: 'Guantes de nitrilo', ...stock });
  const template = await post('/api/authorization-templates', {
    title: 'Extracción',
    body: 'Yo, {{patient}}, autorizo {{treatment}} con {{professional}} el {{date}}.',
  });
  const attendance = await post(`${patient}/attendances`, {
    date: '2026-03-01T10:30:00-03:00',
    attendanceType: 'dentistry',
    professionalId,
    titleResume: 'Control',
    supplies: [{ itemId: supply.id, quantity: 1 }],
  });
  const photo = await photoUpload();
  const upload = await app.inject({
    method: 'POST',
    url: `${patient}/files`,
    headers: { ...bearer(clinic.token), 'content-type': photo.contentType },
    payload: photo.payload,
  });
  if (upload.statusCode !== 201) throw new Error(`seeding a file: ${upload.body}`);
  const entries = await app.inject({
    method: 'POST',
    url: `${patient}/odontogram/entries`,
    headers: bearer(clinic.token),
    payload: { marks: [{ tooth: 11, zone: null, status: 'crown' }] },
  });
  if (entries.statusCode !== 201) throw new Error(`seeding the odontogram: ${entries.body}`);
  const invited = await post('/api/users', {
    completeName: 'Marta Ruiz',
    email: `marta.${seeded}@clinica.test`,
    level: 'user',
  });
  const prescription = await post(`${patient}/prescriptions`, {
    date: '2026-03-01',
    professionalId,
    attendanceId: attendance.id,
    lines: [{ medicationId: medication.id, medicine: 'Amoxicilina', dose: '500 mg' }, { medicine: 'Ibuprofeno 400' }],
  });
  // A signature pad's drawing: a dark stroke on a transparent 200×80 PNG.
  const pixels = Buffer.alloc(200 * 80 * 4);
  for (let x = 20; x < 180; x += 1) {
    for (let y = 38; y < 42; y += 1) pixels.writeUInt32BE(0x000000ff, (y * 200 + x) * 4);
  }
  const signature = await sharp(pixels, { raw: { width: 200, height: 80, channels: 4 } })
    .png()
    .toBuffer();
  // Issue 40: a register with its session open (money written with an Idempotency-Key).
  const register = await post('/api/cash-registers', { name: `Recepción ${seeded}`, kind: 'front_desk' });
  const opened = await app.inject({
    method: 'POST',
    url: `/api/cash-registers/${register.id}/sessions`,
    headers: { ...bearer(clinic.token), 'idempotency-key': `fuzz-seed-${randomUUID()}` },
    payload: { openingFloat: '100.00' },
  });
  if (opened.statusCode !== 201) throw new Error(`seeding the register's session: ${opened.body}`);
  return {
    'cash-registers': [register.id],
    registers: [register.id],
    'cash-sessions': [opened.json().data.id],
    signature: [`data:image/png;base64,${signature.toString('base64')}`],
    patients,
    users: [clinic.userId, invited.id],
    professionals: [clinic.userId],
    medications: [medication.id],
    supplies: [supply.id],
    items: [medication.id, supply.id],
    'authorization-templates': [template.id],
    attendances: [attendance.id],
    diagnoses: [(await post(`${patient}/diagnoses`, { date: '2026-03-01', professionalId, text: 'Caries' })).id],
    laboratories: [
      (
        await post(`${patient}/laboratories`, {
          orderDate: '2026-03-01',
          professionalId,
          laboratoryName: 'Laboratorio Central',
          studies: ['hematology'],
        })
      ).id,
    ],
    prescriptions: [prescription.id],
    authorizations: [
      (
        await post(`${patient}/authorizations`, {
          templateId: template.id,
          date: '2026-03-01',
          professionalId,
          treatment: 'Extracción del 38',
        })
      ).id,
    ],
    files: [upload.json().data[0].id],
    entries: [entries.json().data[0].id],
    code: [String(prescription.verificationCode)],
  };
}

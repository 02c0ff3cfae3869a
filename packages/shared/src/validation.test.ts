import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as attendances from './schemas/attendances.ts';
import * as auth from './schemas/auth.ts';
import * as authorizations from './schemas/authorizations.ts';
import * as clinical from './schemas/clinical.ts';
import * as common from './schemas/common.ts';
import * as diagnoses from './schemas/diagnoses.ts';
import * as files from './schemas/files.ts';
import * as inventory from './schemas/inventory.ts';
import * as laboratories from './schemas/laboratories.ts';
import * as odontogram from './schemas/odontogram.ts';
import * as patients from './schemas/patients.ts';
import * as prescriptions from './schemas/prescriptions.ts';
import * as users from './schemas/users.ts';
import {
  calendarDate,
  hasInvalidCharacters,
  installFieldCodes,
  instant,
  optionalText,
  requiredText,
  safeText,
} from './validation.ts';

/** The codes of a failed parse, or 'ok'. */
function codesOf(schema: z.ZodType, value: unknown): string[] | 'ok' {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : result.error.issues.map((issue) => issue.message);
}

const hostile = {
  nul: 'Ana\u0000Belén',
  loneHigh: 'Ana\ud800',
  loneLow: '\udc00Ana',
  reversedPair: '\ude00\ud83d',
};

beforeAll(() => installFieldCodes());

describe('text the product accepts (issue 14)', () => {
  it('is well-formed Unicode without NUL', () => {
    for (const value of Object.values(hostile)) expect(hasInvalidCharacters(value), JSON.stringify(value)).toBe(true);
    for (const value of [
      '',
      'María José Ñúñez',
      'Sonríe 😁',
      '👩🏽‍⚕️',
      'línea 1\nlínea 2\ttab\r\n',
      '中文',
      'العربية',
    ]) {
      expect(hasInvalidCharacters(value), value).toBe(false);
    }
  });

  it('refuses NUL and lone surrogates with invalid_characters in every text helper', () => {
    for (const value of Object.values(hostile)) {
      expect(codesOf(safeText(), value)).toEqual(['invalid_characters']);
      expect(codesOf(requiredText(), value)).toEqual(['invalid_characters']);
      expect(codesOf(optionalText(), value)).toEqual(['invalid_characters']);
    }
    expect(codesOf(optionalText(), 'Sonríe 😁')).toBe('ok');
    expect(requiredText().parse('  Sonríe 😁 ')).toBe('Sonríe 😁');
  });

  it('refuses them in the search text of every list', () => {
    const query = common.listQuerySchema(['name']);
    expect(codesOf(query, { q: hostile.nul })).toEqual(['invalid_characters']);
    expect(codesOf(query, { q: hostile.loneHigh })).toEqual(['invalid_characters']);
    expect(codesOf(query, { q: 'gonz mar 😁' })).toBe('ok');
  });

  /**
   * Every string a request contract reads (body, query, path) refuses NUL and lone surrogates,
   * so no route can forget it: a new contract with a bare z.string() fails here.
   */
  it('is the rule of every string of every request contract', () => {
    const modules = {
      attendances,
      auth,
      authorizations,
      clinical,
      common,
      diagnoses,
      files,
      inventory,
      laboratories,
      odontogram,
      patients,
      prescriptions,
      users,
    };
    const requestContract = /(Request|Query|Params|Metadata|Filters)Schema$/;
    let contracts = 0;
    let strings = 0;
    for (const [moduleName, module] of Object.entries(modules)) {
      for (const [name, value] of Object.entries(module)) {
        if (!requestContract.test(name) || !isZodSchema(value)) continue;
        contracts += 1;
        for (const [path, leaf] of stringLeaves(value)) {
          strings += 1;
          for (const [what, text] of Object.entries(hostile)) {
            expect(leaf.safeParse(`ok${text}`).success, `${moduleName}.${name}${path} accepts ${what}`).toBe(false);
          }
        }
      }
    }
    expect(contracts).toBeGreaterThan(40);
    expect(strings).toBeGreaterThan(100);
  });
});

describe('dates the product accepts (issue 14)', () => {
  it('takes calendar dates from 1900 to 2999', () => {
    expect(codesOf(calendarDate(), '1900-01-01')).toBe('ok');
    expect(codesOf(calendarDate(), '2999-12-31')).toBe('ok');
    expect(codesOf(calendarDate(), '0000-01-01')).toEqual(['date_too_early']);
    expect(codesOf(calendarDate(), '1899-12-31')).toEqual(['date_too_early']);
    expect(codesOf(calendarDate(), '3000-01-01')).toEqual(['too_big']);
    expect(codesOf(calendarDate(), '2026-02-30')).toEqual(['invalid_date']);
    expect(codesOf(calendarDate(), '12026-01-01')).toEqual(['invalid_date']);
    expect(codesOf(calendarDate(), '')).toEqual(['required']);
    expect(codesOf(calendarDate(), '2026-01-01\u0000')).toEqual(['invalid_date']);
  });

  it('keeps a birthdate between 1900 and today', () => {
    const { create } = patients.patientRequestSchemas(() => '2026-03-01');
    const person = { firstName: 'Ana', lastName: 'Ruiz', sex: 'female' };
    const birthdateCodes = (birthdate: string) => {
      const result = create.safeParse({ ...person, birthdate });
      return result.success ? 'ok' : result.error.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`);
    };
    expect(birthdateCodes('1900-01-01')).toBe('ok');
    expect(birthdateCodes('2026-03-01')).toBe('ok');
    expect(birthdateCodes('1899-12-31')).toEqual(['birthdate:date_too_early']);
    expect(birthdateCodes('0000-01-01')).toEqual(['birthdate:date_too_early']);
    expect(birthdateCodes('2026-03-02')).toEqual(['birthdate:date_in_future']);
    expect(birthdateCodes('not a date')).toEqual(['birthdate:invalid_date']);
  });

  it('takes instants from 1900 to 2999 and answers them in UTC', () => {
    expect(instant().parse('2026-03-01T10:30:00-03:00')).toBe('2026-03-01T13:30:00.000Z');
    expect(codesOf(instant(), '1900-01-01T00:00:00Z')).toBe('ok');
    expect(codesOf(instant(), '2999-12-31T23:59:59.999Z')).toBe('ok');
    expect(codesOf(instant(), '0000-01-01T00:00:00Z')).toEqual(['date_too_early']);
    expect(codesOf(instant(), '1899-12-31T23:59:59Z')).toEqual(['date_too_early']);
    expect(codesOf(instant(), '3000-01-01T00:00:00Z')).toEqual(['too_big']);
    expect(codesOf(instant(), '2026-02-30T10:00:00Z')).toEqual(['invalid_date']);
    expect(codesOf(instant(), '')).toEqual(['required']);
    expect(codesOf(instant(), 12)).toEqual(['invalid_date']);
    expect(codesOf(attendances.dateTime(), '0000-01-01T00:00:00Z')).toEqual(['date_too_early']);
    expect(codesOf(odontogram.odontogramQuerySchema, { at: '0000-01-01T00:00:00Z' })).toEqual(['date_too_early']);
  });
});

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && 'safeParse' in value;
}

/** The string schemas inside a contract, with where they are (through objects, arrays, unions, pipes…). */
function stringLeaves(schema: z.ZodType, path = ''): [string, z.ZodType][] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const children = (entries: [string, unknown][]) =>
    entries.flatMap(([at, child]) => (isZodSchema(child) ? stringLeaves(child, `${path}${at}`) : []));
  switch (def.type) {
    case 'string':
      return [[path, schema]];
    case 'object':
      return children(Object.entries(def.shape as Record<string, unknown>).map(([key, child]) => [`.${key}`, child]));
    case 'array':
      return children([['[]', def.element]]);
    case 'union':
      return children((def.options as unknown[]).map((option, index) => [`|${index}`, option]));
    case 'pipe':
      // A pipe is tested whole: its second half may be what refuses (an e-mail, a datetime).
      return children([
        ['', def.in],
        ['', def.out],
      ]).length > 0
        ? [[path, schema]]
        : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return children([['', def.innerType]]);
    default:
      return [];
  }
}

describe('phone numbers as people write them (issue 34)', () => {
  it.each([
    '+54 11 4567-8900',
    '(011) 4567-8900',
    '11 15 4567 8900',
    '011 15-4567-8900',
    '+54 9 11 4567-8900',
    '0054 9 11 4567 8900',
    '+55 (11) 98765-4321',
    '+34 912 345 678',
    '+33 1 23 45 67 89',
    '+1 (212) 555-0199',
    '4567-8900',
    '4567.8900',
    '+54 11 4567-8900 int. 23',
    '4567-8900 ext 104',
  ])('accepts %s', (value) => {
    expect(codesOf(patients.createPatientRequestSchema.shape.phone, value)).toBe('ok');
  });

  it.each(['12345', 'abc 4567-8900', '+54 11 4567-8900-1234-5678', '4567--', '+', '45+678900', '1'.repeat(16)])(
    'refuses %s',
    (value) => {
      expect(codesOf(patients.createPatientRequestSchema.shape.phone, value)).toEqual(['invalid_phone']);
    },
  );

  it.each(['+54', '54', '+54 11', '11', '011', '(0351)', '+54 9 11', '0054 11'])('accepts the code %s', (value) => {
    expect(codesOf(patients.createPatientRequestSchema.shape.phoneArea, value)).toBe('ok');
  });

  it.each(['+54 11 4567 89', 'AR', '+54/11'])('refuses the code %s', (value) => {
    expect(codesOf(patients.createPatientRequestSchema.shape.phoneArea, value)).not.toBe('ok');
  });
});

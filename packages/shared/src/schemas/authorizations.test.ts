import { describe, expect, it } from 'vitest';
import {
  authorizationPlaceholders,
  createAuthorizationTemplateRequestSchema,
  fillPlaceholders,
  formatMoney,
  unknownPlaceholders,
} from './authorizations.ts';

const values = Object.fromEntries(authorizationPlaceholders.map((name) => [name, `<${name}>`])) as Record<
  (typeof authorizationPlaceholders)[number],
  string
>;

describe('authorization placeholders', () => {
  it('fills every known placeholder, spaces inside the braces allowed, each occurrence', () => {
    expect(fillPlaceholders('{{patient}} / {{ idNumber }} / {{patient}} / {{cost}}', values)).toBe(
      '<patient> / <idNumber> / <patient> / <cost>',
    );
  });

  it('names unknown placeholders once each and leaves them unfilled', () => {
    expect(unknownPlaceholders('{{patient}} {{precio}} {{ dni }} {{precio}} {{}}')).toEqual(['precio', 'dni', '']);
    expect(fillPlaceholders('{{precio}}', values)).toBe('{{precio}}');
    expect(unknownPlaceholders('Sin marcadores { ni } llaves sueltas')).toEqual([]);
  });

  it('a template body with an unknown placeholder is refused as unknown_placeholder', () => {
    const result = createAuthorizationTemplateRequestSchema.safeParse({ title: 'T', body: 'Pago {{precio}}' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['body', 'unknown_placeholder'],
    ]);
    expect(createAuthorizationTemplateRequestSchema.parse({ title: 'T', body: 'Autorizo {{treatment}}' })).toEqual({
      kind: 'consent',
      title: 'T',
      body: 'Autorizo {{treatment}}',
      active: true,
    });
  });

  it("checks a certificate template's body against the certificate placeholders", () => {
    const parse = (kind: string, body: string) =>
      createAuthorizationTemplateRequestSchema.safeParse({ kind, title: 'T', body }).success;
    expect(parse('rest', 'Reposo {{days}} desde {{from}}')).toBe(true);
    expect(parse('rest', 'Reposo por {{treatment}}')).toBe(false);
    expect(parse('consent', 'Apto para {{activity}}')).toBe(false);
    expect(unknownPlaceholders('{{activity}} {{cost}}', 'fitness')).toEqual(['cost']);
  });

  it('writes the cost in the clinic currency as people read it', () => {
    expect(formatMoney('150000.50', 'argentine_peso', 'es').replace(/\s/g, ' ')).toBe('$ 150.000,50');
    expect(formatMoney('1234.00', 'us_dollar', 'en')).toBe('$1,234.00');
  });
});

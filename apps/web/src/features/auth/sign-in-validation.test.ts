import { maxPasswordLength as sharedMaxPasswordLength, signInRequestSchema } from '@odontia/shared/schemas/auth';
import { describe, expect, it } from 'vitest';
import { maxPasswordLength, signInBody, validateSignIn } from './sign-in-validation';

/** The first issue per field of the shared schema, as `{ field: code }`. */
function sharedErrors(values: { email: string; password: string; remember: boolean }) {
  const result = signInRequestSchema.safeParse(values);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return errors;
}

describe('validateSignIn agrees with signInRequestSchema', () => {
  const emails = [
    '',
    '   ',
    'ana@clinica.com',
    '  Ana.Perez@Clinica.COM.ar ',
    'ana',
    'ana@',
    '@clinica.com',
    'ana@clinica',
    'ana..perez@clinica.com',
    '.ana@clinica.com',
    'ana+turnos@clinica-dental.es',
    "o'neil@clinic.co.uk",
    'ana@clínica.com',
    `${'a'.repeat(250)}@x.com`,
  ];
  const passwords = ['', ' ', 'secret', 'x'.repeat(1024), 'x'.repeat(1025)];

  it.each(emails)('e-mail %j', (email) => {
    for (const password of passwords) {
      const values = { email, password, remember: false };
      expect(validateSignIn(values)).toEqual(sharedErrors(values));
    }
  });

  it('uses the shared maximum password length', () => {
    expect(maxPasswordLength).toBe(sharedMaxPasswordLength);
  });

  it('builds the body the schema would output', () => {
    const values = { email: '  Ana@Clinica.COM ', password: ' pass word ', remember: true };
    expect(signInBody(values)).toEqual(signInRequestSchema.parse(values));
  });
});

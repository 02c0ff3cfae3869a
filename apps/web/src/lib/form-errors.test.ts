import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * "Errors where the eye is" applies to every form: each react-hook-form form goes through
 * lib/form-errors.ts (its resolver, its ref, its invalid handler), none places server errors or
 * focuses fields on its own.
 */

const source = path.resolve(import.meta.dirname, '..');

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return files(full);
    return /\.tsx$/.test(entry.name) && !/\.test\./.test(entry.name) ? [full] : [];
  });
}

const forms = files(source)
  .map((file) => ({ file: path.relative(source, file), text: readFileSync(file, 'utf8') }))
  .filter(({ text }) => /\buse(Zod|Auth)?Form\s*[<(]/.test(text));

/** The auth screens' form hook (a useZodForm whose invalid handler is formErrors.onInvalid) and form. */
const authFormHook = readFileSync(path.join(source, 'features/auth/use-auth-form.ts'), 'utf8');
const authForm = readFileSync(path.join(source, 'features/auth/auth-form.tsx'), 'utf8');

describe('every form shows its errors where the eye is', () => {
  it('finds the forms', () => {
    expect(forms.length).toBeGreaterThan(15);
  });

  it.each(forms.map(({ file }) => file))('%s uses the shared form errors', (file) => {
    const text = forms.find((form) => form.file === file)?.text ?? '';
    if (/\buseAuthForm\s*[<(]/.test(text)) {
      // useAuthForm (features/auth/use-auth-form.ts) holds useZodForm and submits with formErrors.onInvalid;
      // its answer goes to AuthForm, which puts formErrors.ref on the <form>.
      expect(text).toMatch(/<AuthForm\s+form=\{auth\}/);
      expect(text).not.toMatch(/\.handleSubmit\(/);
    } else if (/\buseZodForm\s*[<(]/.test(text)) {
      // useZodForm (lib/use-zod-form.ts) holds useFormErrors; its `submit` passes formErrors.onInvalid.
      expect(text).toMatch(/ref=\{(form\.)?formErrors\.ref\}/);
      expect(text).toMatch(/\.submit\(/);
      expect(text).not.toMatch(/\.handleSubmit\(/);
    } else {
      expect(text).toMatch(/useFormErrors\(/);
      expect(text).toMatch(/ref=\{formErrors\.ref\}/);
      expect(text).toMatch(/formErrors\.onInvalid/);
    }
    expect(text).not.toMatch(/zodResolver|shouldFocus: true|fieldErrorsOf\(/);
  });

  it("the auth screens' form hook goes through the shared form errors", () => {
    expect(authFormHook).toMatch(/useZodForm\(/);
    expect(authFormHook).toMatch(/formErrors\.onInvalid\(\)/);
    expect(authFormHook).toMatch(/formErrors\.place\(/);
    expect(authFormHook).not.toMatch(/zodResolver|shouldFocus: true|fieldErrorsOf\(/);
    expect(authForm).toMatch(/<form ref=\{formErrors\.ref\}/);
  });
});

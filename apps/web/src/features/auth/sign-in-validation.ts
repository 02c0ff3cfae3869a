/*
 * The sign-in form checks its fields by hand instead of loading zod and react-hook-form: the
 * sign-in page has a 150 KB gzip budget. The rules and codes are those of the shared
 * `signInRequestSchema`; a unit test compares both on many inputs.
 */

/** `maxPasswordLength` of the shared contracts, copied: importing that module would bring zod along. */
export const maxPasswordLength = 1024;

export interface SignInValues {
  email: string;
  password: string;
  remember: boolean;
}

export type SignInErrors = Partial<Record<'email' | 'password', string>>;

// zod 4's default e-mail pattern (z.email()).
const emailPattern = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function validateSignIn(values: SignInValues): SignInErrors {
  const errors: SignInErrors = {};
  const email = values.email.trim();
  if (!email) errors.email = 'required';
  else if (email.length > 254) errors.email = 'too_long';
  else if (!emailPattern.test(email)) errors.email = 'invalid_email';
  if (!values.password) errors.password = 'required';
  else if (values.password.length > maxPasswordLength) errors.password = 'too_long';
  return errors;
}

/** The request body, as the shared schema would output it (trimmed, lower-cased e-mail). */
export function signInBody(values: SignInValues) {
  return { email: values.email.trim().toLowerCase(), password: values.password, remember: values.remember };
}

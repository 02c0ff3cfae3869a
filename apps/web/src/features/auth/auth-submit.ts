import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useFormErrors } from '../../lib/form-errors';

/**
 * An auth form's message above its fields and its submit: each try starts with the message
 * cleared, and a new mistake clears it too (no stale message beside it). Not in auth-parts: the
 * sign-in page loads that, without the form library.
 */
export function useAuthSubmit<Problem = string>() {
  const [problem, setProblem] = useState<Problem | null>(null);
  const formErrors = useFormErrors();
  const submit = <T extends FieldValues, Out>(
    form: UseFormReturn<T, unknown, Out>,
    send: (values: Out) => Promise<void>,
  ) =>
    form.handleSubmit(
      async (values) => {
        setProblem(null);
        await send(values);
      },
      () => {
        setProblem(null);
        formErrors.onInvalid();
      },
    );
  return { problem, setProblem, formErrors, submit };
}

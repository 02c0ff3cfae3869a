import { useState } from 'react';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../lib/api-errors';
import { useZodForm, type ZodFormSchema } from '../../lib/use-zod-form';

/**
 * The form of an auth screen that uses react-hook-form (sign-up, forgot and reset password, lock
 * screen): validated by its shared schema, sent by `send`, with the `problem` the alert above the
 * fields shows. A refusal goes on its fields when it names them (`fields`), else it becomes the
 * problem (`problemOf`: the error's message unless the screen says more; null shows none).
 * Put `formErrors.ref` on the form (lib/form-errors.ts).
 */
export function useAuthForm<Schema extends ZodFormSchema, Problem = string>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
  {
    fields,
    send,
    problemOf = errorMessage as (error: unknown) => Problem,
  }: {
    fields: readonly string[];
    send: (values: z.output<Schema>) => Promise<void>;
    problemOf?: (error: unknown) => Problem | null;
  },
) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const form = useZodForm(schema, defaultValues);
  const onSubmit = form.handleSubmit(
    async (values) => {
      setProblem(null);
      try {
        await send(values);
      } catch (error) {
        if (!form.formErrors.place(error, form.setError, { fields })) setProblem(problemOf(error));
      }
    },
    () => {
      // A new mistake replaces the last answer: no stale message beside it.
      setProblem(null);
      form.formErrors.onInvalid();
    },
  );
  return { form, formErrors: form.formErrors, problem, onSubmit };
}

import { type DefaultValues, type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formResolver, useFormErrors } from './form-errors';

/*
 * A react-hook-form form validated by a shared zod contract, typed from it: the fields are the
 * schema's input, `handleSubmit` hands over its output (what the API takes). `formErrors` is the
 * one way a form shows its errors (lib/form-errors.ts): put `formErrors.ref` on the <form>,
 * `formErrors.onInvalid` is already the invalid handler of `submit`, and a failed save calls
 * `formErrors.place(error, form.setError)`.
 *
 *   const form = useZodForm(createDiagnosisRequestSchema, valuesOf(record));
 *   const onSubmit = form.submit(async (body) => { await save.mutateAsync(body); });
 *   <form ref={form.formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)}>
 */

export type ZodFormSchema = z.ZodType<FieldValues, FieldValues>;

export function useZodForm<Schema extends ZodFormSchema>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver' | 'defaultValues'> & {
    /** Reshapes the values before the schema reads them (e.g. unticked checkboxes → []). */
    prepare?: (values: z.input<Schema>) => z.input<Schema>;
    /**
     * Validates with this schema instead, of the same fields but fewer: a record's create schema,
     * when the form is typed by its update schema (which adds `version`, left out on create).
     */
    validateWith?: ZodFormSchema | undefined;
  } = {},
) {
  const { prepare, validateWith, ...formOptions } = options;
  const validate = formResolver<z.input<Schema>, z.output<Schema>>(validateWith ?? schema);
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    ...formOptions,
    resolver: prepare
      ? (values, context, resolverOptions) => validate(prepare(values), context, resolverOptions)
      : validate,
    defaultValues,
  });
  const formErrors = useFormErrors();
  /** `handleSubmit` with the form's invalid handler (scrolls to and announces the first error). */
  const submit = (onValid: (values: z.output<Schema>) => Promise<void> | void) =>
    form.handleSubmit(onValid, formErrors.onInvalid);
  return { ...form, formErrors, submit };
}

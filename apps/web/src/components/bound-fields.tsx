import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { describedField, FieldLabel, FormField, inputClass } from './form-field';

/*
 * Fields bound to a react-hook-form form by name: label (with the required mark), control, hint
 * and the field's translated message, tied together for assistive technology.
 *
 *   <TextField form={form} name="text" label={t('fields.text')} rows={3} required />
 *   <SelectField form={form} name="status" label={t('fields.status')} options={statuses.map(…)} />
 */

/** The part of a form a bound field needs (`useZodForm`'s or `useForm`'s answer). */
export type BoundForm<T extends FieldValues> = Pick<UseFormReturn<T, unknown, never>, 'register' | 'formState'>;

export interface BoundFieldProps<T extends FieldValues> {
  form: BoundForm<T>;
  name: Path<T>;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  /** Class of the field's wrapper. */
  className?: string;
}

/** The message code of a field (nested paths too; an array's own message under `root`). */
export function fieldError<T extends FieldValues>(form: BoundForm<T>, name: Path<T>): string | undefined {
  const error = get(form.formState.errors, name) as { message?: string; root?: { message?: string } } | undefined;
  return error?.message ?? error?.root?.message;
}

/** A bound field's id, message and the props that describe its control. */
export function useBoundField<T extends FieldValues>(form: BoundForm<T>, name: Path<T>, hint: boolean) {
  const id = `${useId()}-${name}`;
  const error = fieldError(form, name);
  return { id, error, described: describedField(id, error, hint && !error) };
}

/** A text input, or a textarea when `rows` is given. */
export function TextField<T extends FieldValues>({
  form,
  name,
  label,
  required = false,
  hint,
  className = 'mb-0',
  rows,
  inputClassName = '',
  ...input
}: BoundFieldProps<T> & { rows?: number; inputClassName?: string } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'form' | 'name' | 'className' | 'required'
  >) {
  const field = useBoundField(form, name, hint !== undefined);
  const classes = `${inputClass(field.error)}${inputClassName ? ` ${inputClassName}` : ''}`;
  return (
    <FormField
      id={field.id}
      label={<FieldLabel text={label} required={required} />}
      error={field.error}
      hint={hint}
      className={className}
    >
      {rows ? (
        <textarea {...form.register(name)} {...field.described} rows={rows} className={classes} />
      ) : (
        <input
          autoComplete="off"
          {...input}
          {...form.register(name)}
          {...field.described}
          className={classes}
          aria-required={required || undefined}
        />
      )}
    </FormField>
  );
}

/** A select of fixed options. */
export function SelectField<T extends FieldValues>({
  form,
  name,
  label,
  required = false,
  hint,
  className = 'mb-0',
  options,
  ...select
}: BoundFieldProps<T> & { options: { value: string; label: string }[] } & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    'form' | 'name' | 'className' | 'required'
  >) {
  const field = useBoundField(form, name, hint !== undefined);
  return (
    <FormField
      id={field.id}
      label={<FieldLabel text={label} required={required} />}
      error={field.error}
      hint={hint}
      className={className}
    >
      <select
        {...select}
        {...form.register(name)}
        {...field.described}
        className={`form-select${field.error ? ' is-invalid' : ''}`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FormField>
  );
}

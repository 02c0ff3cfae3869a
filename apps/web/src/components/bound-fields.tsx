import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { describedField, FieldLabel, FormField, inputClass } from './form-field';
import { PasswordInput } from './password-input';

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

/** What a bound field's control receives: its message and the props that tie it to its label. */
export interface BoundControl {
  error: string | undefined;
  props: ReturnType<typeof describedField> & { 'aria-required': true | undefined };
}

/**
 * The frame of every bound field (label with the required mark, hint, message); `children` draws
 * the control: `<BoundField form={form} name="date" label={…}>{(c) => <DateInput {...c.props} />}</BoundField>`.
 */
export function BoundField<T extends FieldValues>({
  form,
  name,
  label,
  required = false,
  hint,
  className = 'mb-0',
  children,
}: BoundFieldProps<T> & { children: (control: BoundControl) => ReactNode }) {
  const id = `${useId()}-${name}`;
  const error = fieldError(form, name);
  const props = { ...describedField(id, error, hint !== undefined && !error), 'aria-required': required || undefined };
  return (
    <FormField
      id={id}
      label={<FieldLabel text={label} required={required} />}
      error={error}
      hint={hint}
      className={className}
    >
      {children({ error, props })}
    </FormField>
  );
}

type ControlProps<E> = Omit<E, 'form' | 'name' | 'className' | 'required'>;

/** A text input, or a textarea when `rows` is given. */
export function TextField<T extends FieldValues>({ rows, inputClassName = '', ...props }: TextFieldProps<T>) {
  const { form, name, label, required, hint, className, ...input } = props;
  return (
    <BoundField {...{ form, name, label, required, hint, className }}>
      {(control) => {
        const classes = `${inputClass(control.error)}${inputClassName ? ` ${inputClassName}` : ''}`;
        return rows ? (
          <textarea
            {...(input as TextareaHTMLAttributes<HTMLTextAreaElement>)}
            {...form.register(name)}
            {...control.props}
            rows={rows}
            className={classes}
          />
        ) : (
          <input autoComplete="off" {...input} {...form.register(name)} {...control.props} className={classes} />
        );
      }}
    </BoundField>
  );
}

/** A password input with its show/hide button. */
export function PasswordField<T extends FieldValues>({ autoComplete, autoFocus, ...props }: PasswordFieldProps<T>) {
  const { form, name } = props;
  return (
    <BoundField {...props}>
      {(control) => (
        <PasswordInput
          {...form.register(name)}
          {...control.props}
          invalid={Boolean(control.error)}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
        />
      )}
    </BoundField>
  );
}

/** A select of fixed options. */
export function SelectField<T extends FieldValues>({ options, ...props }: SelectFieldProps<T>) {
  const { form, name, label, required, hint, className, ...select } = props;
  return (
    <BoundField {...{ form, name, label, required, hint, className }}>
      {(control) => (
        <select
          {...select}
          {...form.register(name)}
          {...control.props}
          className={`form-select${control.error ? ' is-invalid' : ''}`}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </BoundField>
  );
}

type TextFieldProps<T extends FieldValues> = BoundFieldProps<T> & {
  rows?: number;
  inputClassName?: string;
} & ControlProps<InputHTMLAttributes<HTMLInputElement>>;
type SelectFieldProps<T extends FieldValues> = BoundFieldProps<T> & {
  options: { value: string; label: string }[];
} & ControlProps<SelectHTMLAttributes<HTMLSelectElement>>;

type PasswordFieldProps<T extends FieldValues> = BoundFieldProps<T> & {
  autoComplete: 'current-password' | 'new-password';
  autoFocus?: boolean;
};

/**
 * A field of a FieldGrid: a SelectField when it has `options`, a PasswordField when it says `password`,
 * else a TextField; `testId` is its data-testid.
 */
export type GridField<T extends FieldValues> = (
  | Omit<TextFieldProps<T>, 'form'>
  | Omit<SelectFieldProps<T>, 'form'>
  | (Omit<PasswordFieldProps<T>, 'form'> & { password: true })
) & {
  testId?: string;
};

/** Bound fields drawn from a list, in place (each field's `className` sets its columns in the parent row). */
export function BoundFields<T extends FieldValues>({ form, fields }: { form: BoundForm<T>; fields: GridField<T>[] }) {
  return fields.map(({ testId, ...field }) => {
    if ('password' in field) {
      const { password: _password, ...props } = field;
      return <PasswordField key={field.name} form={form} {...props} />;
    }
    return 'options' in field ? (
      <SelectField key={field.name} form={form} {...field} data-testid={testId} />
    ) : (
      <TextField key={field.name} form={form} {...field} data-testid={testId} />
    );
  });
}

/** A row of bound fields (Bootstrap's `row g-3`; each field's `className` sets its columns). */
export function FieldGrid<T extends FieldValues>({ form, fields }: { form: BoundForm<T>; fields: GridField<T>[] }) {
  return (
    <div className="row g-3">
      <BoundFields form={form} fields={fields} />
    </div>
  );
}

import type { ReactNode } from 'react';
import type { FieldValues, Path } from 'react-hook-form';
import { type BoundForm, TextField } from '../../components/bound-fields';

/**
 * A party's tax id (CUIT, NIF…) in a form's grid cell, typed upper case; below it (`children`)
 * what the server said of it, such as the record that already holds it.
 */
export function TaxIdField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  className,
  testId,
  children,
}: {
  form: BoundForm<T>;
  name: Path<T>;
  label: string;
  hint?: string;
  className: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <TextField
        form={form}
        name={name}
        label={label}
        hint={hint}
        inputClassName="text-uppercase"
        data-testid={testId}
      />
      {children}
    </div>
  );
}

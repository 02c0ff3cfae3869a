import type { FieldValues } from 'react-hook-form';
import { type BoundForm, type GridField, SelectField, TextField } from './bound-fields';

/** A bound field and the grid cell (Bootstrap columns) that holds it. */
export type CellField<T extends FieldValues> = GridField<T> & { cell: string };

/**
 * Bound fields, each in its own cell of the row around them: for a form whose row mixes them with
 * other parts (FieldGrid draws a row of its own). A field with `options` is a SelectField, else a TextField.
 */
export function FieldCells<T extends FieldValues>({ form, fields }: { form: BoundForm<T>; fields: CellField<T>[] }) {
  return fields.map(({ cell, testId, ...field }) => (
    <div key={field.name} className={cell}>
      {'options' in field ? (
        <SelectField form={form} {...field} data-testid={testId} />
      ) : (
        <TextField form={form} {...field} data-testid={testId} />
      )}
    </div>
  ));
}

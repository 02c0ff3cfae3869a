import type { ComponentProps, ReactNode } from 'react';

/**
 * An on/off switch with its label (and, under the label, its `hint`). `input` is what drives it:
 * a form's `register(name)`, or `checked` and `onChange`. `className` adds to `form-check
 * form-switch` (mb-0, mt-md-4); `after` follows the label (a `form-text`).
 */
export function SwitchField({
  id,
  label,
  hint,
  className,
  input,
  testId,
  after,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  input: ComponentProps<'input'>;
  testId?: string;
  after?: ReactNode;
}) {
  return (
    <div className={className ? `form-check form-switch ${className}` : 'form-check form-switch'}>
      <input {...input} id={id} type="checkbox" className="form-check-input" data-testid={testId} />
      <label htmlFor={id} className="form-check-label">
        {label}
        {hint === undefined ? null : <span className="d-block small text-body-secondary">{hint}</span>}
      </label>
      {after}
    </div>
  );
}

import type { ReactNode } from 'react';

/** The message under an invalid field (Bootstrap `invalid-feedback`, shown by `d-block`). */
export function FieldFeedback({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {message}
    </div>
  );
}

/** A form-level message: the server's answer or "fill in all required fields". */
export function FormAlert({
  variant = 'danger',
  children,
  testId,
}: {
  variant?: 'danger' | 'warning' | 'success' | 'info';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div
      className={`alert alert-${variant} auth-alert`}
      role={variant === 'danger' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

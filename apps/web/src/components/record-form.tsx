import type { FormEvent, ReactNode, RefObject } from 'react';
import { keepEnterInForm } from '../lib/form-keys';

/** A record's form: no browser validation, Enter kept in the form (`keepEnterInForm`), `onSubmit`'s promise let go. */
export function RecordForm({
  ref,
  onSubmit,
  testId,
  className,
  children,
}: {
  ref: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      ref={ref}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={keepEnterInForm}
      data-testid={testId}
      className={className}
    >
      {children}
    </form>
  );
}

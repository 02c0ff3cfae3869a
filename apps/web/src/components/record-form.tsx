import type { FormEvent, ReactNode, RefObject } from 'react';
import { keepEnterInForm } from '../lib/form-keys';

/** A record's form: no browser validation, Enter kept in the form (`keepEnterInForm`), `onSubmit`'s promise let go. */
export function RecordForm({
  formRef,
  onSubmit,
  testId,
  className,
  children,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      ref={formRef}
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

import type { DefaultValues, FieldValues, UseFormReset, UseFormSetError } from 'react-hook-form';
import { toastApiError, toastSuccess } from './api-toast';
import type { PlaceOptions } from './form-errors';
import { isApiError } from './http';

/** What the save needs of a `useZodForm` form (input values `In`). */
interface DialogForm<In extends FieldValues> {
  reset: UseFormReset<In>;
  setError: UseFormSetError<In>;
  formErrors: {
    place: (error: unknown, setError: UseFormSetError<In>, options?: PlaceOptions<NoInfer<In>>) => boolean;
  };
}

/**
 * The save of a dialog that creates or edits one versioned record (a customer, a treatment, a
 * point of sale): a save toasts the server's code and closes; a version conflict loads the record
 * someone else saved and calls `onConflict` (the dialog says so); `refused` takes a record's own
 * codes (true: handled); any other refusal goes to its fields or to a toast.
 */
export async function saveRecordDialog<In extends FieldValues, Saved>(
  form: DialogForm<In>,
  {
    save,
    valuesOf,
    onDone,
    onConflict,
    place,
    refused,
  }: {
    save: () => Promise<{ code?: string | undefined }>;
    valuesOf: (saved: Saved) => DefaultValues<NoInfer<In>>;
    onDone: () => void;
    onConflict: () => void;
    place?: PlaceOptions<NoInfer<In>>;
    refused?: (error: unknown) => boolean;
  },
): Promise<void> {
  try {
    const answer = await save();
    if (answer.code) toastSuccess(answer.code);
    onDone();
  } catch (error) {
    if (isApiError(error) && error.code === 'version_conflict') {
      const current = error.details?.current as Saved | undefined;
      if (current) form.reset(valuesOf(current));
      onConflict();
      return;
    }
    if (refused?.(error)) return;
    if (!form.formErrors.place(error, form.setError, place)) toastApiError(error);
  }
}

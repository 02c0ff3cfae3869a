import { useState } from 'react';
import type { DefaultValues, FieldValues, UseFormReset, UseFormSetError } from 'react-hook-form';
import { toastApiError, toastSuccess } from './api-toast';
import { isApiError } from './http';

/** What the save needs of a `useZodForm` form (input values `In`). */
interface SubmitForm<In extends FieldValues> {
  reset: UseFormReset<In>;
  setError: UseFormSetError<In>;
  formErrors: { place: (error: unknown, setError: UseFormSetError<In>) => boolean };
}

/**
 * What a settings form that edits one versioned record in place submits
 * (`form.submit(saveVersioned)`): a save resets the form to what the server kept and says so; a version conflict loads the record someone else saved and
 * raises `conflict` (the form shows it); any other refusal goes to its fields or to a toast.
 */
export function useVersionedSubmit<In extends FieldValues, Out, Saved>(
  form: SubmitForm<In>,
  save: (body: Out) => Promise<{ data: Saved; code?: string | undefined }>,
  valuesOf: (saved: Saved) => DefaultValues<In>,
  successCode: string,
) {
  const [conflict, setConflict] = useState(false);
  const saveVersioned = async (body: Out) => {
    try {
      const answer = await save(body);
      setConflict(false);
      form.reset(valuesOf(answer.data));
      toastSuccess(answer.code ?? successCode);
    } catch (error) {
      if (isApiError(error) && error.code === 'version_conflict') {
        const current = error.details?.current as Saved | undefined;
        if (current) form.reset(valuesOf(current));
        setConflict(true);
        return;
      }
      if (!form.formErrors.place(error, form.setError)) toastApiError(error);
    }
  };
  return { saveVersioned, conflict };
}

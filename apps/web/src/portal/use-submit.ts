import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/http';
import { portalErrorText, portalFieldErrors } from './errors';

/**
 * An action the patient starts (a button, a form): one at a time — a second press (a double click)
 * while the first is on its way does nothing — with its busy state and its failure.
 */
export function usePress<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const press = async (...args: A) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (failure) {
      setError(failure);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return { press, busy, error };
}

/**
 * A form of `fields` (its inputs' names), all required: an empty one is said on its field before
 * anything is sent, the server's field errors go on theirs, and so do the codes of `codeFields`
 * (`current_password_incorrect` on the current password) instead of the form's alert; a field's
 * error goes as soon as the patient changes it (`edit`, the form's input handler); sent once at a
 * time (`usePress`).
 */
export function useFormSubmit<F extends string>(
  fields: readonly F[],
  action: (values: Record<F, string>) => Promise<void>,
  codeFields: Partial<Record<string, F>> = {},
) {
  const { t } = useTranslation();
  const [missing, setMissing] = useState<Partial<Record<F, string>>>({});
  // Fields changed since the last submit: their error is about a value no longer there.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const { press, busy, error } = usePress(action);
  const edit = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (name && !edited.has(name)) setEdited(new Set(edited).add(name));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(new Set());
    const form = new FormData(event.currentTarget);
    // As typed (a password keeps its spaces); blank counts as empty.
    const values = Object.fromEntries(fields.map((name) => [name, String(form.get(name) ?? '')])) as Record<F, string>;
    const empty = fields.filter((name) => !values[name].trim());
    setMissing(Object.fromEntries(empty.map((name) => [name, t('validation:required')])) as Partial<Record<F, string>>);
    if (empty.length) {
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${empty[0]}"]`)?.focus();
      return;
    }
    void press(values);
  };
  const placed = isApiError(error) ? codeFields[error.code] : undefined;
  const fieldErrors = Object.fromEntries(
    Object.entries({
      ...portalFieldErrors(error),
      ...(placed ? { [placed]: portalErrorText(error) } : {}),
      ...missing,
    }).filter(([name]) => !edited.has(name)),
  ) as Partial<Record<F, string>>;
  return { submit, edit, busy, error: placed ? null : error, fieldErrors };
}

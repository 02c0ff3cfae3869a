import { fieldErrorsOf, fieldMessage, retryAfterText } from '../lib/api-errors';
import { isApiError } from '../lib/http';
import { i18n } from '../lib/i18n';

/**
 * A failed call as the patient reads it: the server's code translated — the portal's own words
 * (usted, `portal:errors.codes`) where the shared catalog speaks to the staff (tú), else
 * `messages` —, the wait of a 429, else the generic problem; and the server's field errors by field.
 */
export function portalErrorText(error: unknown): string {
  if (isApiError(error) && error.code === 'too_many_requests') {
    const seconds = Number(error.details?.retryAfterSeconds);
    const when = retryAfterText(Number.isFinite(seconds) && seconds > 0 ? seconds : 60, i18n.language);
    return i18n.t('portal:errors.tooManyRequests', { when });
  }
  const code = isApiError(error) ? error.code : '';
  const key = [`portal:errors.codes.${code}`, `messages:${code}`].find((name) => code && i18n.exists(name));
  return key ? i18n.t(key) : i18n.t('messages:systemError');
}

/** The server's field errors as `{ field: text }`, in the portal's words where it has its own (usted). */
export function portalFieldErrors(error: unknown): Record<string, string> {
  return Object.fromEntries(
    fieldErrorsOf(error).map(({ path, code }) => {
      const own = `portal:errors.fields.${code}`;
      return [path, i18n.exists(own) ? i18n.t(own) : fieldMessage(code)];
    }),
  );
}

import { fieldErrorsOf, fieldMessage, retryAfterText } from '../lib/api-errors';
import { isApiError } from '../lib/http';
import { i18n } from '../lib/i18n';

/**
 * A failed call as the patient reads it: the server's code translated (`messages`), the wait of
 * a 429, else the generic problem; and the server's field errors by field.
 */
export function portalErrorText(error: unknown): string {
  if (isApiError(error) && error.code === 'too_many_requests') {
    const seconds = Number(error.details?.retryAfterSeconds);
    const when = retryAfterText(Number.isFinite(seconds) && seconds > 0 ? seconds : 60, i18n.language);
    return i18n.t('portal:errors.tooManyRequests', { when });
  }
  const key = isApiError(error) ? `messages:${error.code}` : '';
  return key && i18n.exists(key) ? i18n.t(key) : i18n.t('messages:systemError');
}

/** The server's field errors as `{ field: text }`. */
export function portalFieldErrors(error: unknown): Record<string, string> {
  return Object.fromEntries(fieldErrorsOf(error).map(({ path, code }) => [path, fieldMessage(code)]));
}

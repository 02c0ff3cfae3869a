import { fieldMessageKey, parseFieldMessage } from './field-message';
import { isApiError } from './http';
import { i18n } from './i18n';

export interface FieldError {
  path: string;
  code: string;
}

export { type FieldCodes, fieldCodesOf, fieldErrorsOf } from './field-message';

/**
 * The translated text of a field code (namespace `validation`); unknown codes read as "invalid
 * value". (The catalog decides, not `isFieldCode`: importing the shared validation module would
 * bring zod into the sign-in page.)
 */
export function fieldMessage(code: string | undefined): string {
  if (!code) return '';
  const { key, values } = fieldMessageKey(parseFieldMessage(code));
  const full = `validation:${key}`;
  return i18n.exists(full) ? i18n.t(full, values) : i18n.t('validation:invalid_value');
}

/** "in 5 minutes" in the interface language, from `details.retryAfterSeconds` of a 429. */
export function retryAfterText(seconds: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
  if (seconds < 60) return format.format(Math.max(1, Math.ceil(seconds)), 'second');
  return format.format(Math.ceil(seconds / 60), 'minute');
}

/**
 * The text of a failed call for an alert on an auth screen: the server code's translation
 * (`messages:<code>`), the retry time for a 429, the generic system or network error otherwise.
 */
export function errorMessage(error: unknown): string {
  if (!isApiError(error)) return i18n.t('messages:systemError');
  if (error.code === 'too_many_requests') {
    const seconds = Number(error.details?.retryAfterSeconds);
    if (Number.isFinite(seconds) && seconds > 0) {
      return i18n.t('auth:common.tooManyRequests', {
        when: retryAfterText(seconds, i18n.resolvedLanguage ?? i18n.language),
      });
    }
  }
  const key = `messages:${error.code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t('messages:systemError');
}

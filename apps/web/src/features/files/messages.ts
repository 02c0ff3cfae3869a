import { isApiError } from '../../lib/http';
import { i18n } from '../../lib/i18n';

/** Megabytes in the interface's language ("0,5", "10"). */
export function formatMegabytes(value: number): string {
  return new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language, { maximumFractionDigits: 2 }).format(value);
}

/**
 * A file message of the shared catalog with its values: the file's name and the limit in MB
 * (file_too_large, files_too_large, file_type_not_allowed…).
 */
export function fileMessage(code: string, values: { file?: string; max?: number } = {}): string {
  const key = `messages:${code}`;
  if (!i18n.exists(key)) return i18n.t('messages:systemError');
  return i18n.t(key, { ...values, ...(values.max === undefined ? {} : { max: formatMegabytes(values.max) }) });
}

/** The text of a failed upload or file call, with the server's details (which file, which limit). */
export function fileErrorMessage(error: unknown, fallback = 'systemError'): string {
  if (!isApiError(error)) return fileMessage(fallback);
  const details = error.details ?? {};
  return fileMessage(error.code, {
    ...(typeof details.file === 'string' ? { file: details.file } : {}),
    ...(typeof details.max === 'number' ? { max: details.max } : {}),
  });
}

import { formatSize, megabyte } from '../../lib/format-size';
import { isApiError } from '../../lib/http';
import { i18n } from '../../lib/i18n';

/** A limit in megabytes as every size is shown ("10 MB", "512 kB", "2 Mo"): lib/format-size.ts. */
export function formatMegabytes(value: number): string {
  return formatSize(value * megabyte, i18n.resolvedLanguage ?? i18n.language);
}

/**
 * A file message of the shared catalog with its values: the file's name and the limit in MB
 * (file_too_large, files_too_large, file_type_not_allowed…); the limit is formatted with its unit.
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

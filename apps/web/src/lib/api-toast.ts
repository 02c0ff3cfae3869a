import { toast } from 'react-toastify/unstyled';
import { isApiError } from './http';
import { i18n } from './i18n';

/** Shows a failed call as a translated toast (`messages:<code>`, else the generic system error). */
export function toastApiError(error: unknown): void {
  const code = isApiError(error) ? error.code : 'systemError';
  const key = `messages:${code}`;
  const text = i18n.exists(key) ? i18n.t(key) : i18n.t('messages:systemError');
  toast.error(text, { toastId: code });
}

export function toastSuccess(code: string): void {
  const key = `messages:${code}`;
  if (i18n.exists(key)) toast.success(i18n.t(key));
}

import { useSyncExternalStore } from 'react';
import { isApiError } from './http';
import { i18n } from './i18n';

/*
 * react-toastify loads on the first toast, not with the page: the sign-in page stays light.
 * A toast raised before its container is mounted waits in react-toastify's queue.
 */
let containerWanted = false;
const listeners = new Set<() => void>();

function loadToast() {
  if (!containerWanted) {
    containerWanted = true;
    for (const listener of listeners) listener();
  }
  return import('react-toastify/unstyled').then((module) => module.toast);
}

/** True once a toast was asked for: the layout then mounts the container (app/toasts.tsx). */
export function useToastContainerWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => containerWanted,
  );
}

/** Shows a failed call as a translated toast (`messages:<code>`, else the generic system error). */
export function toastApiError(error: unknown): void {
  const code = isApiError(error) ? error.code : 'systemError';
  const key = `messages:${code}`;
  const text = i18n.exists(key) ? i18n.t(key) : i18n.t('messages:systemError');
  void loadToast().then((toast) => toast.error(text, { toastId: code }));
}

export function toastSuccess(code: string): void {
  const key = `messages:${code}`;
  if (i18n.exists(key)) void loadToast().then((toast) => toast.success(i18n.t(key)));
}

/** A success toast with a text of its own (when the message code's catalog text does not fit). */
export function toastSuccessText(text: string): void {
  void loadToast().then((toast) => toast.success(text));
}

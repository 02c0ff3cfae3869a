import { createElement, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
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

/**
 * A toast's text, translated when it renders rather than when it is raised: a save that also
 * switches the interface language (the profile) shows its toast in the new language once that
 * language's texts have loaded. `values` fill the message's placeholders ({{file}}, {{max}}…).
 */
function ToastText({ messageKey, values }: { messageKey: string; values?: Record<string, unknown> }) {
  const { t } = useTranslation('messages');
  return t(messageKey, values ?? {});
}

/** A failed call's catalog key (`messages:<code>`, else the generic system error) and its values. */
function errorMessageOf(error: unknown): { code: string; messageKey: string; values?: Record<string, unknown> } {
  const code = isApiError(error) ? error.code : 'systemError';
  const key = `messages:${code}`;
  if (!i18n.exists(key)) return { code, messageKey: 'messages:systemError' };
  return { code, messageKey: key, ...(isApiError(error) && error.details ? { values: error.details } : {}) };
}

/** Shows a failed call as a translated toast (`messages:<code>`, else the generic system error). */
export function toastApiError(error: unknown): void {
  const { code, messageKey, values } = errorMessageOf(error);
  const text = createElement(ToastText, { messageKey, values });
  void loadToast().then((toast) => toast.error(text, { toastId: code }));
}

/**
 * A failed call's text in the interface language (the same key as its toast), for an alert shown
 * where the user is looking. Never the server's `message`: that is English, for API clients and logs.
 */
export function apiErrorText(error: unknown): string {
  const { messageKey, values } = errorMessageOf(error);
  return i18n.t(messageKey, values ?? {});
}

export function toastSuccess(code: string): void {
  const key = `messages:${code}`;
  if (i18n.exists(key)) void loadToast().then((toast) => toast.success(createElement(ToastText, { messageKey: key })));
}

/** A success toast with a text of its own (when the message code's catalog text does not fit). */
export function toastSuccessText(text: string): void {
  void loadToast().then((toast) => toast.success(text));
}

/**
 * An error toast with a text of its own (a form's first field in error: "SKU: Ya existe…"). The
 * same text twice in a row shows once.
 */
export function toastErrorText(text: string): void {
  void loadToast().then((toast) => toast.error(text, { toastId: `text:${text}` }));
}

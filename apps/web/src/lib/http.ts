import { apiBase } from './base-path';
import { tokenStore } from './storage-keys';

/** Spec §9: every call gives up after 10 s. */
export const httpTimeoutMs = 10_000;

/** A failed call: the server's `{ code, message, details? }`, or `networkError` when no answer came. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Turns an error answer into an ApiError, whatever the body looks like. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object') {
    const { code, message, details } = body as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof code === 'string') {
      return new ApiError(
        status,
        code,
        typeof message === 'string' ? message : code,
        details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined,
      );
    }
  }
  return new ApiError(status, 'systemError', `HTTP ${status}`);
}

function joinUrl(path: string): string {
  return `${apiBase()}/${path.replace(/^\/+/, '')}`;
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What a 401 of an authenticated call means for the app: the screen is locked
 * (`session_locked`), or the session is gone (`unauthorized`, `session_expired`).
 */
export type AuthFailure = 'locked' | 'signedOut';
const authFailureListeners = new Set<(failure: AuthFailure, error: ApiError) => void>();

/** Called on every 401 that ends or locks the session; returns the unsubscribe function. */
export function onAuthFailure(listener: (failure: AuthFailure, error: ApiError) => void): () => void {
  authFailureListeners.add(listener);
  return () => {
    authFailureListeners.delete(listener);
  };
}

export function authFailureOf(error: ApiError): AuthFailure | null {
  if (error.status !== 401) return null;
  if (error.code === 'session_locked') return 'locked';
  if (error.code === 'unauthorized' || error.code === 'session_expired') return 'signedOut';
  return null;
}

export interface RequestOptions {
  /**
   * A call the user did not ask for (polling): sent with `x-background: 1`, so the server neither
   * counts it as activity nor lets it keep the screen unlocked.
   */
  background?: boolean;
  /** Headers of this call only. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of a write that creates or issues a document or moves money (the API
   * requires it there): one per user action, the same on a retry of that action (`useAction`,
   * lib/use-action.ts).
   */
  idempotencyKey?: string;
}

async function send(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
  accept = 'application/json',
): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: accept };
  if (options.background) headers['x-background'] = '1';
  Object.assign(headers, options.headers);
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const token = tokenStore.get();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(joinUrl(path), {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(httpTimeoutMs),
    });
  } catch (error) {
    // Offline, DNS, CORS, or the 10 s timeout: the server never answered.
    const message = error instanceof Error ? error.message : String(error);
    throw new ApiError(0, 'networkError', message);
  }
  if (!response.ok) {
    const parsed = await parseBody(response).catch(() => null);
    const error = apiErrorFromBody(response.status, parsed);
    const failure = token ? authFailureOf(error) : null;
    if (failure) for (const listener of authFailureListeners) listener(failure, error);
    throw error;
  }
  return response;
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, body, options);
  return (await parseBody(response).catch(() => null)) as T;
}

/** A file the server sends (a CSV export): its content and the name from Content-Disposition. */
async function download(path: string): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await send('GET', path, undefined, {}, '*/*');
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return { blob: await response.blob(), fileName: match?.[1] ? decodeURIComponent(match[1]) : null };
}

export interface UploadOptions {
  /** Called as the body goes out: bytes sent and the body's size. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** POST by default; PUT replaces a single file (the clinic's logo). */
  method?: 'POST' | 'PUT';
}

/**
 * A multipart upload (FormData; the browser writes the boundary). XMLHttpRequest rather than
 * fetch: it is the one that reports upload progress. A large body may take longer than the 10 s
 * of a JSON call, so the limit is 10 s without progress instead; errors are ApiErrors as above.
 */
function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', joinUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = tokenStore.get();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    let idle: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(idle);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (message: string) => {
      settle();
      reject(new ApiError(0, 'networkError', message));
    };
    const stillAlive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        xhr.abort();
        fail('timeout');
      }, httpTimeoutMs);
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort);
    xhr.upload.onprogress = (event) => {
      stillAlive();
      if (event.lengthComputable) options.onProgress?.(event.loaded, event.total);
    };
    xhr.onprogress = stillAlive;
    xhr.onerror = () => fail('network error');
    xhr.onabort = () => fail('aborted');
    xhr.onload = () => {
      settle();
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      const error = apiErrorFromBody(xhr.status, body);
      const failure = token ? authFailureOf(error) : null;
      if (failure) for (const listener of authFailureListeners) listener(failure, error);
      reject(error);
    };
    stillAlive();
    xhr.send(form);
  });
}

export const http = {
  /** Any method: what the typed client (lib/api-client.ts) sends. */
  request: <T = unknown>(method: string, path: string, body?: unknown, options?: RequestOptions) =>
    request<T>(method, path, body, options),
  get: <T = unknown>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body ?? {}, options),
  put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, body ?? {}, options),
  patch: <T = unknown>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T = unknown>(path: string, body?: unknown) => request<T>('DELETE', path, body),
  download,
  upload,
};

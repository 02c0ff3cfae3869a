import { sha256Hex } from './sha256';

/**
 * Local-storage keys are obfuscated (spec §7): product prefix + hex SHA-256 of host name + key.
 * The hash is synchronous (./sha256.ts) because crypto.subtle is missing on plain http.
 */
export const storagePrefix = '__ODONTIA__';
/** Used instead of the host name when there is no window (tests, server rendering). */
export const defaultStorageSalt = 'odontia.local';

/** `agenda.<account>.<user>`: the agenda's remembered view and filters (features/agenda/agenda-preferences.ts). */
export type StorageKeyName = 'token' | 'user' | `agenda.${string}`;

function currentHost(): string {
  return typeof window === 'undefined' ? defaultStorageSalt : window.location.hostname;
}

export function obfuscatedKey(key: string, host: string = currentHost()): string {
  return storagePrefix + sha256Hex(host + key);
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled by the browser's privacy settings.
    return null;
  }
}

export function readItem(key: StorageKeyName): string | null {
  return storage()?.getItem(obfuscatedKey(key)) ?? null;
}

export function writeItem(key: StorageKeyName, value: string): void {
  storage()?.setItem(obfuscatedKey(key), value);
}

export function removeItem(key: StorageKeyName): void {
  storage()?.removeItem(obfuscatedKey(key));
}

/** The session token, stored as the raw string. */
export const tokenStore = {
  get: (): string | null => readItem('token'),
  set: (token: string): void => writeItem('token', token),
  remove: (): void => removeItem('token'),
};

/** The signed-in user's profile, stored as JSON. */
export const userStore = {
  get<T>(): T | null {
    const raw = readItem('user');
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  set: (user: unknown): void => writeItem('user', JSON.stringify(user)),
  remove: (): void => removeItem('user'),
};

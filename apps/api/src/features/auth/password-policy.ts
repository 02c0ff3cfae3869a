import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The most common leaked passwords (common-passwords.txt; its header names the source). Length
 * is checked by the contract; this refuses a password in the list, or one character repeated.
 */
const commonPasswords = new Set(
  readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
);

export function isCommonPassword(password: string): boolean {
  const normalized = password.normalize('NFKC').toLowerCase();
  if (commonPasswords.has(normalized)) return true;
  const characters = [...normalized];
  return characters.every((char) => char === characters[0]);
}

export function commonPasswordCount(): number {
  return commonPasswords.size;
}

import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (256 bits, base64url). Only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** sha256 of a token, hex: what the database keeps and looks up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

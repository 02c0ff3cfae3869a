import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum, which `verbatimModuleSyntax` cannot import). */
const argon2id = 2;

/**
 * Password hashing: argon2id with the library's defaults (19 MiB, 2 passes, 1 lane — the
 * OWASP minimum). The PHC string keeps its parameters, so they can be raised later.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), { algorithm: argon2id });
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Same work as a real check, so an unknown e-mail takes as long as a wrong password.
    await hash(password, { algorithm: argon2id });
    return false;
  }
  try {
    return await verify(passwordHash, password.normalize('NFC'));
  } catch {
    return false;
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets kept at rest sealed (issue 38: a clinic's SMS and WhatsApp tokens): AES-256-GCM with the
 * installation's key, `v1.<iv>.<tag>.<ciphertext>` in base64url. A database dump alone does not
 * give them away, and the API never answers them back (only whether one is set).
 */

export interface Sealer {
  seal(plain: string): string;
  unseal(sealed: string): string;
}

/** The key from SECRETS_KEY, or the one kept in DATA_DIR/secrets.key (made once, readable by the owner only). */
export function installationKey(options: { secretsKey?: string | undefined; dataDir: string }): Buffer {
  if (options.secretsKey) return Buffer.from(options.secretsKey, 'base64');
  const file = path.join(options.dataDir, 'secrets.key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    mkdirSync(options.dataDir, { recursive: true });
    try {
      // `wx`: two instances starting together keep the first one's key.
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch {
      // Written by another instance meanwhile: read it below.
    }
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    unseal(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

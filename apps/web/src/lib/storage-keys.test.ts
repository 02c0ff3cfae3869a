import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultStorageSalt, obfuscatedKey, storagePrefix } from './storage-keys';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('obfuscatedKey', () => {
  it('is the prefix plus the hex SHA-256 of host + key', () => {
    expect(obfuscatedKey('user', 'clinica.example.com')).toBe(storagePrefix + nodeSha256('clinica.example.comuser'));
  });

  it('matches a known vector', () => {
    // sha256('localhosttoken')
    expect(obfuscatedKey('token', 'localhost')).toBe(
      '__ODONTIA__93b64408a96b7079c5cf414f32891420b4961569381c846643d6f265804246b9',
    );
    expect(obfuscatedKey('token', 'localhost')).toMatch(/^__ODONTIA__[0-9a-f]{64}$/);
  });

  it('hashes UTF-8 text', () => {
    expect(obfuscatedKey('ñandú', 'clínica')).toBe(storagePrefix + nodeSha256('clínicañandú'));
  });

  it('uses the fixed salt when there is no window', () => {
    expect(typeof window).toBe('undefined');
    expect(obfuscatedKey('token')).toBe(storagePrefix + nodeSha256(`${defaultStorageSalt}token`));
  });

  it('differs per host and per key', () => {
    expect(obfuscatedKey('token', 'a')).not.toBe(obfuscatedKey('token', 'b'));
    expect(obfuscatedKey('token', 'a')).not.toBe(obfuscatedKey('user', 'a'));
  });
});

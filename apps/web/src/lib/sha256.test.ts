import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the FIPS vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches node:crypto at every length around the block boundaries, and on UTF-8 text', () => {
    for (let length = 0; length < 200; length += 1) {
      const text = 'a1ñ€😀'.repeat(40).slice(0, length);
      expect(sha256Hex(text)).toBe(nodeSha256(text));
    }
    expect(sha256Hex('clínica.example.comtoken')).toBe(nodeSha256('clínica.example.comtoken'));
  });
});

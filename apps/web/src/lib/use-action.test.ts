import { idempotencyKeyPattern } from '@odontia/shared/schemas/common';
import { describe, expect, it } from 'vitest';
import { ActionKeys, newIdempotencyKey, signatureOf } from './use-action';

describe('one Idempotency-Key per user action', () => {
  it('makes keys the API accepts, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(idempotencyKeyPattern);
  });

  it('sends the same key when the same action is retried, a new one after a success or for other values', () => {
    const keys = new ActionKeys();
    const first = keys.keyFor({ version: 3 });
    expect(keys.keyFor({ version: 3 })).toBe(first);
    const other = keys.keyFor({ version: 4 });
    expect(other).not.toBe(first);
    expect(keys.keyFor({ version: 4 })).toBe(other);
    keys.done();
    expect(keys.keyFor({ version: 4 })).not.toBe(other);
    expect(keys.keyFor(undefined)).toBe(keys.keyFor(undefined));
  });

  it('reads the values, not the order of their fields', () => {
    expect(signatureOf({ a: 1, b: { d: [1, 2], c: null } })).toBe(signatureOf({ b: { c: null, d: [1, 2] }, a: 1 }));
    expect(signatureOf({ a: [1, 2] })).not.toBe(signatureOf({ a: [2, 1] }));
    expect(signatureOf(['x'])).not.toBe(signatureOf({ 0: 'x' }));
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { auditHash } from './audit.repository.ts';

describe('audit hash', () => {
  it('does not depend on the order of keys', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(auditHash('p', { a: 1, b: { c: 2, d: 3 } })).toBe(auditHash('p', { b: { d: 3, c: 2 }, a: 1 }));
    expect(auditHash(null, { a: 1 })).not.toBe(auditHash('x', { a: 1 }));
  });
});

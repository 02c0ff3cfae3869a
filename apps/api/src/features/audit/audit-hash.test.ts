import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { auditChainBreaks, auditHash } from './audit.repository.ts';

describe('audit hash', () => {
  it('does not depend on the order of keys', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(auditHash('p', { a: 1, b: { c: 2, d: 3 } })).toBe(auditHash('p', { b: { d: 3, c: 2 }, a: 1 }));
    expect(auditHash(null, { a: 1 })).not.toBe(auditHash('x', { a: 1 }));
  });
});

describe('audit chain breaks', () => {
  const event = (seq: number, prevHash: string | null) => {
    const fields = {
      accountId: 'a',
      id: `e${seq}`,
      seq,
      userId: null,
      patientId: null,
      action: 'test',
      entity: 'test',
      entityId: null,
      before: null,
      after: null,
      ip: null,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, seq)),
    };
    return { ...fields, prevHash, hash: auditHash(prevHash, { ...fields, createdAt: fields.createdAt.toISOString() }) };
  };

  it('finds none in an intact chain and each kind of break in a tampered one', () => {
    const first = event(1, null);
    const second = event(2, first.hash);
    expect(auditChainBreaks([first, second])).toEqual([]);
    expect(auditChainBreaks([second])).toEqual(['event 1 has seq 2', 'seq 2: prev_hash is not the previous hash']);
    expect(auditChainBreaks([first, { ...second, action: 'changed' }])).toEqual([
      'seq 2: hash does not match the event',
    ]);
  });
});

import { expect } from 'vitest';
import { auditHash, type listAuditEvents } from '../src/features/audit/audit.repository.ts';

/**
 * A clinic's audit trail, oldest first, is one unbroken chain: `seq` counts from 1, each event
 * names the hash before it, and each hash is the hash of its event.
 */
export function expectAuditChain(events: Awaited<ReturnType<typeof listAuditEvents>>): void {
  let prev: string | null = null;
  for (const [index, event] of events.entries()) {
    expect(event.seq).toBe(index + 1);
    expect(event.prevHash).toBe(prev);
    const { hash, prevHash, ...rest } = event;
    expect(hash).toBe(auditHash(prevHash, { ...rest, createdAt: rest.createdAt.toISOString() }));
    prev = hash;
  }
}

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
    // An API token's event (issue 42) hashes its token too; every other event hashes as before.
    const { hash, prevHash, apiTokenId, ...rest } = event;
    const hashed = { ...rest, ...(apiTokenId ? { apiTokenId } : {}), createdAt: rest.createdAt.toISOString() };
    expect(hash).toBe(auditHash(prevHash, hashed));
    prev = hash;
  }
}

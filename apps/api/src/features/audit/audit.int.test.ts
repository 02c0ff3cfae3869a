import { describe, expect, it } from 'vitest';
import { expectAuditChain } from '../../../test/audit-chain.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { listAuditEvents, recordAuditEvent } from './audit.repository.ts';

/** The audit chain stays one unbroken line per clinic, even when events are written at once. */
describe('audit chain', () => {
  const t = useTestClinic();

  it('numbers and chains concurrent events of two clinics separately', async () => {
    const clinics = [t.clinic, t.other];
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => {
        const clinic = clinics[index % 2];
        if (!clinic) throw new Error('no clinic');
        return t.db.withTenant(clinic.accountId, (tx) =>
          recordAuditEvent(tx, { accountId: clinic.accountId, action: `test_${index}`, entity: 'test' }),
        );
      }),
    );
    for (const clinic of clinics) {
      const events = await t.db.withTenant(clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.every((event) => event.accountId === clinic.accountId)).toBe(true);
      expect(events.filter((event) => event.action.startsWith('test_'))).toHaveLength(15);
      expectAuditChain(events);
    }
  });
});

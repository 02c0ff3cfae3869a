import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { auditHash, listAuditEvents, recordAuditEvent } from './audit.repository.ts';

/** The audit chain stays one unbroken line per clinic, even when events are written at once. */
describe('audit chain', () => {
  let testApp: TestApp;
  const mailer = new MemoryMailer();

  beforeAll(async () => {
    testApp = await createTestApp({ mailer });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('numbers and chains concurrent events of two clinics separately', async () => {
    const clinics = [await createTestClinic(testApp.app, mailer), await createTestClinic(testApp.app, mailer)];
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => {
        const clinic = clinics[index % 2];
        if (!clinic) throw new Error('no clinic');
        return testApp.db.withTenant(clinic.accountId, (tx) =>
          recordAuditEvent(tx, { accountId: clinic.accountId, action: `test_${index}`, entity: 'test' }),
        );
      }),
    );
    for (const clinic of clinics) {
      const events = await testApp.db.withTenant(clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.every((event) => event.accountId === clinic.accountId)).toBe(true);
      expect(events.filter((event) => event.action.startsWith('test_'))).toHaveLength(15);
      let prev: string | null = null;
      for (const [index, event] of events.entries()) {
        expect(event.seq).toBe(index + 1);
        expect(event.prevHash).toBe(prev);
        const { hash, prevHash, ...rest } = event;
        expect(hash).toBe(auditHash(prevHash, { ...rest, createdAt: rest.createdAt.toISOString() }));
        prev = hash;
      }
    }
  });
});

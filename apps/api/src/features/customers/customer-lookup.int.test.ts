import type { customerLookupAnswerSchema } from '@odontia/shared/schemas/customers';
import { describe, expect, it } from 'vitest';
import { type Answer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { customers } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { customerOfPatient } from './customer-parties.ts';
import { recordCollection } from './record-collection.ts';

type Lookup = Answer<typeof customerLookupAnswerSchema>;

/** GET /api/customers/lookup (issue 18): patients and companies in one search, with their money. */
describe.each(availableBackends())('customer lookup on %s', (backend) => {
  const t = useTestClinic(backend);

  it('finds patients and insurers by name, with balance and credit on account; never another clinic’s', async () => {
    const patientId = await t.newPatient(undefined, { firstName: 'Rosario', lastName: 'Quintana' });
    const insurerId = newId();
    await t.db.withTenant(t.clinic.accountId, async (tx) => {
      await tx.insert(customers).values({
        accountId: t.clinic.accountId,
        id: insurerId,
        kind: 'insurer',
        name: 'Quintana Salud Obra Social',
        taxId: '30-71111111-4',
        createdBy: t.clinic.userId,
        updatedBy: t.clinic.userId,
      });
      const ctx = { tx, accountId: t.clinic.accountId, userId: t.clinic.userId, ip: '127.0.0.1' };
      const customer = await customerOfPatient(ctx, patientId);
      // The same row on a second call: one customer per patient.
      expect((await customerOfPatient(ctx, patientId)).id).toBe(customer.id);
      await recordCollection(ctx, {
        customer,
        date: '2026-11-02',
        amount: '1500.00',
        currency: 'argentine_peso',
        method: 'cash_payment',
        status: 'paid',
        allocations: [],
      });
    });
    await t.newPatient(t.other.token, { firstName: 'Rosario', lastName: 'Quintana Otra' });

    const found = await t.call('GET', '/api/customers/lookup?q=quintana');
    expect(found.statusCode, found.body).toBe(200);
    const data = found.json<Lookup>().data;
    // By name as shown (a space sorts before a comma).
    expect(data.map((item) => [item.kind, item.name])).toEqual([
      ['insurer', 'Quintana Salud Obra Social'],
      ['patient', 'Quintana, Rosario'],
    ]);
    expect(data[1]).toMatchObject({ patientId, balance: '-1500.00', onAccount: '1500.00' });
    expect(data[0]).toMatchObject({ customerId: insurerId, patientId: null, detail: '30-71111111-4', balance: '0.00' });

    // Short queries scan by name; the customer level may not look.
    expect((await t.call('GET', '/api/customers/lookup?q=qu')).json<Lookup>().data.length).toBe(2);
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/customers/lookup?q=quintana')).statusCode).toBe(403);
    });
    expect((await t.call('GET', '/api/customers/lookup?limit=0')).statusCode).toBe(400);
  });
});

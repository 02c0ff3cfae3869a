import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  expectMarkedPaidOnce,
  expectReversedForGood,
  insertProvider,
  insertRegisteredPurchase,
  ledgerMismatches,
  movementLedgerEntries,
  openAmountOf,
} from '../../../test/commercial.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Payments to providers (issue 17): allocation, on account, reversal, paid, idempotency, the ledger invariant. */
describe.each(availableBackends())('payments on %s', (backend) => {
  const t = useTestClinic(backend);

  afterEach(async () => {
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  const key = () => `test-${randomUUID()}`;
  const pay = (body: Record<string, unknown>, idempotencyKey: string = key(), token?: string) =>
    t.call('POST', '/api/payments', {
      body: {
        date: '2026-10-15',
        amount: '100.00',
        currency: 'argentine_peso',
        method: 'bank_transfer',
        ...body,
      },
      headers: { 'idempotency-key': idempotencyKey },
      ...(token ? { token } : {}),
    });

  it('validates each field with its code and never answers 500', async () => {
    const providerId = await insertProvider(t);
    const cases: [Record<string, unknown>, { path: string; code: string }][] = [
      [{ providerId: 'nope' }, { path: 'providerId', code: 'invalid_value' }],
      [
        { providerId, amount: '0' },
        { path: 'amount', code: 'too_small' },
      ],
      [
        { providerId, amount: 'abc' },
        { path: 'amount', code: 'invalid_value' },
      ],
      [
        { providerId, date: '2026-02-30' },
        { path: 'date', code: 'invalid_value' },
      ],
      [
        { providerId, method: 'cheque' },
        { path: 'method', code: 'invalid_value' },
      ],
      [
        { providerId, currency: 'yen' },
        { path: 'currency', code: 'invalid_value' },
      ],
      [
        { providerId, notes: 'a\u0000b' },
        { path: 'notes', code: 'invalid_value' },
      ],
    ];
    for (const [body, field] of cases) {
      const response = await pay(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const fields = response.json().details.fields as { path: string; code: string }[];
      expect(
        fields.map((f) => f.path),
        JSON.stringify(body),
      ).toContain(field.path);
    }
    const missing = await t.call('POST', '/api/payments', {
      body: { providerId, date: '2026-10-15', amount: '1', currency: 'argentine_peso', method: 'bank_transfer' },
      idempotencyKey: null,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('idempotency_key_required');
    const unknownProvider = await pay({ providerId: randomUUID() });
    expect(unknownProvider.statusCode).toBe(404);
    expect(unknownProvider.json().code).toBe('provider_not_found');
  });

  it('allocates partly, refuses over-allocation, keeps the remainder on account and allocates it later', async () => {
    const providerId = await insertProvider(t);
    const a = await insertRegisteredPurchase(t, { providerId, net: '1000', date: '2026-09-01' }); // 1210.00
    const b = await insertRegisteredPurchase(t, { providerId, net: '500', date: '2026-09-10' }); // 605.00

    const open = await t.call('GET', `/api/providers/${providerId}/open-documents`);
    expect(open.statusCode).toBe(200);
    expect(open.json().data.map((d: { id: string }) => d.id)).toEqual([a.id, b.id]);

    const over = await pay({ providerId, amount: '100.00', allocations: [{ documentId: a.id, amount: '100.01' }] });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('payment_over_allocation');
    const aboveDocument = await pay({
      providerId,
      amount: '5000.00',
      allocations: [{ documentId: b.id, amount: '605.01' }],
    });
    expect(aboveDocument.statusCode).toBe(409);
    expect(aboveDocument.json().code).toBe('payment_over_allocation');

    const created = await pay({
      providerId,
      amount: '1500.00',
      transactionNumber: 'TRF-778899',
      allocations: [{ documentId: a.id, amount: '1210.00' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const payment = created.json().data;
    expect(created.json().code).toBe('payment_created');
    expect(payment.number).toMatch(/^OP-\d{6}$/);
    expect(payment).toMatchObject({
      status: 'paid',
      paidOn: '2026-10-15',
      allocatedAmount: '1210.00',
      unallocatedAmount: '290.00',
      providerId,
    });
    expect(payment.counterpartySnapshot.name).toMatch(/^Dental Sur/);
    expect(payment.allocations).toHaveLength(1);
    expect(await openAmountOf(t, a.id)).toBe('0.00');

    const tooMuch = await t.call('POST', `/api/payments/${payment.id}/allocations`, {
      body: { version: payment.version, allocations: [{ documentId: b.id, amount: '290.01' }] },
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('payment_over_allocation');
    const stale = await t.call('POST', `/api/payments/${payment.id}/allocations`, {
      body: { version: payment.version + 5, allocations: [{ documentId: b.id, amount: '1' }] },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');

    const later = await t.call('POST', `/api/payments/${payment.id}/allocations`, {
      body: { version: payment.version, allocations: [{ documentId: b.id, amount: '290.00' }] },
    });
    expectAnswer(later, 200, {
      code: 'payment_allocated',
      data: { allocatedAmount: '1500.00', unallocatedAmount: '0.00' },
    });
    expect(await openAmountOf(t, b.id)).toBe('315.00');
    const events = await t.auditEvents('payment_allocated');
    expect(events.find((event) => event.entityId === payment.id)?.after).toMatchObject({ allocatedAmount: '1500.00' });
    expect((await t.auditEvents('payment_created')).some((event) => event.entityId === payment.id)).toBe(true);
  });

  it('refuses a document in another currency or of another provider', async () => {
    const providerId = await insertProvider(t);
    const otherProvider = await insertProvider(t);
    // Issue 35: a document in another currency cannot exist (the database refuses it), and a
    // payment in another currency is refused before anything is written.
    await expect(insertRegisteredPurchase(t, { providerId, currency: 'us_dollar' })).rejects.toThrow();
    const theirs = await insertRegisteredPurchase(t, { providerId: otherProvider });
    const mismatch = await pay({
      providerId,
      currency: 'us_dollar',
      allocations: [{ documentId: theirs.id, amount: '10' }],
    });
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().code).toBe('currency_not_clinic');
    const notTheirs = await pay({ providerId, allocations: [{ documentId: theirs.id, amount: '10' }] });
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().code).toBe('purchase_not_found');
  });

  it('reverses a payment: the documents owe again, a reversal entry, a second reversal is refused', async () => {
    const providerId = await insertProvider(t);
    const a = await insertRegisteredPurchase(t, { providerId, net: '100' }); // 121.00
    const created = await pay({ providerId, amount: '200.00', allocations: [{ documentId: a.id, amount: '121.00' }] });
    const payment = created.json().data;
    expect(await openAmountOf(t, a.id)).toBe('0.00');

    const asUser = await t.asLevel('user', () =>
      t.call('POST', `/api/payments/${payment.id}/reverse`, { body: { version: payment.version, reason: 'Error' } }),
    );
    expect(asUser.statusCode).toBe(403);
    const missingReason = await t.call('POST', `/api/payments/${payment.id}/reverse`, {
      body: { version: payment.version, reason: '' },
    });
    expect(missingReason.statusCode).toBe(400);

    const reversed = await t.call('POST', `/api/payments/${payment.id}/reverse`, {
      body: { version: payment.version, reason: 'Transferencia duplicada' },
    });
    expectAnswer(reversed, 200, {
      code: 'payment_reversed',
      data: { reversalReason: 'Transferencia duplicada', allocatedAmount: '121.00', unallocatedAmount: '0.00' },
    });
    expect(reversed.json().data.reversedAt).not.toBeNull();
    expect(reversed.json().data.allocations[0].reversed).toBe(true);
    expect(await openAmountOf(t, a.id)).toBe('121.00');
    expect(await movementLedgerEntries(t, payment.id)).toEqual([
      { kind: 'payment', debit: '200.00', credit: '0.00' },
      { kind: 'payment_reversal', debit: '0.00', credit: '200.00' },
    ]);
    await expectReversedForGood(t, 'payment', reversed.json().data, {
      allocate: 'allocations',
      documentId: a.id,
      audited: { reason: 'Transferencia duplicada', reallocatedToDocuments: '121.00' },
      party: `providerId=${providerId}`,
    });
  });

  it('marks a pending payment paid once', async () => {
    const providerId = await insertProvider(t);
    const created = await pay({ providerId, status: 'pending', paidOn: '2026-10-20' });
    await expectMarkedPaidOnce(t, 'payment', created, `providerId=${providerId}`);
  });

  it('answers the same payment for the same key, refuses the key with another body', async () => {
    const providerId = await insertProvider(t);
    const idempotencyKey = key();
    const body = { providerId, amount: '55.00' };
    const concurrency = backend === 'postgres' ? 50 : 5;
    const answers = await Promise.all(Array.from({ length: concurrency }, () => pay(body, idempotencyKey)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    const ids = new Set(answers.map((answer) => answer.json().data.id));
    expect(ids.size).toBe(1);
    expect(new Set(answers.map((answer) => answer.json().data.number)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(concurrency - 1);
    const { rows } = await t.db.orm.execute<{ n: number }>(
      sql`select count(*)::int as n from payments where provider_id = ${providerId}::uuid`,
    );
    expect(rows[0]?.n).toBe(1);
    const reused = await pay({ providerId, amount: '56.00' }, idempotencyKey);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency_key_reused');
  });

  it("answers 404 for another clinic's payment and provider, and follows the permission matrix", async () => {
    const providerId = await insertProvider(t);
    const created = await pay({ providerId });
    const payment = created.json().data;
    const other = t.other.token;
    expect((await t.call('GET', `/api/payments/${payment.id}`, { token: other })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/payments/${payment.id}/proof.pdf`, { token: other })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/providers/${providerId}/open-documents`, { token: other })).statusCode).toBe(404);
    const theirs = await pay({ providerId }, key(), other);
    expect(theirs.statusCode).toBe(404);
    expect(
      (
        await t.call('POST', `/api/payments/${payment.id}/paid`, {
          token: other,
          body: { version: payment.version, paidOn: '2026-10-20' },
        })
      ).statusCode,
    ).toBe(404);
    const otherList = await t.call('GET', '/api/payments', { token: other });
    expect(otherList.json().data.some((p: { id: string }) => p.id === payment.id)).toBe(false);

    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/payments')).statusCode).toBe(403);
      expect((await pay({ providerId })).statusCode).toBe(403);
    });
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/payments')).statusCode).toBe(200);
      expect((await pay({ providerId })).statusCode).toBe(201);
    });
    await t.asLevel('supervisor', async () => {
      const again = await t.call('GET', `/api/payments/${payment.id}`);
      const reversed = await t.call('POST', `/api/payments/${payment.id}/reverse`, {
        body: { version: again.json().data.version, reason: 'Prueba' },
      });
      expect(reversed.statusCode).toBe(200);
    });
  });

  it('lists with search, filters and sort', async () => {
    const providerId = await insertProvider(t, { fantasyName: 'Ortodoncia Rivadavia' });
    await pay({ providerId, date: '2026-01-10', amount: '10.00', transactionNumber: 'ZX-998877' });
    await pay({ providerId, date: '2026-02-10', amount: '30.00' });
    await pay({ providerId, date: '2026-03-10', amount: '20.00' });
    const all = await t.call('GET', `/api/payments?providerId=${providerId}`);
    expect(all.json().data.map((p: { date: string }) => p.date)).toEqual(['2026-03-10', '2026-02-10', '2026-01-10']);
    const byAmount = await t.call('GET', `/api/payments?providerId=${providerId}&sort=-amount`);
    expect(byAmount.json().data.map((p: { amount: string }) => p.amount)).toEqual(['30.00', '20.00', '10.00']);
    const range = await t.call('GET', `/api/payments?providerId=${providerId}&from=2026-02-01&to=2026-02-28`);
    expect(range.json().total).toBe(1);
    const searched = await t.call('GET', '/api/payments?q=998877');
    expect(searched.json().data.map((p: { transactionNumber: string }) => p.transactionNumber)).toEqual(['ZX-998877']);
    const byName = await t.call('GET', `/api/payments?q=${encodeURIComponent('rivadavia')}`);
    expect(byName.json().total).toBe(3);
    expect((await t.call('GET', '/api/payments?from=2026-13-01')).statusCode).toBe(400);
  });

  it('prints the proof of payment in the reader language, with the reversal stamp', async () => {
    const providerId = await insertProvider(t, { fantasyName: 'Implantes del Plata' });
    const a = await insertRegisteredPurchase(t, { providerId, net: '100', number: '00001234' });
    const created = await pay({
      providerId,
      amount: '150.00',
      transactionNumber: 'TRF-4455',
      allocations: [{ documentId: a.id, amount: '121.00' }],
    });
    const payment = created.json().data;
    const response = await t.call('GET', `/api/payments/${payment.id}/proof.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Orden de pago / Comprobante de pago');
    expect(text).toContain(payment.number);
    expect(text).toContain('Implantes del Plata');
    expect(text).toContain('TRF-4455');
    expect(text).toContain('Factura 0001-00001234');
    expect(text).toContain('Queda a cuenta');
    await t.call('POST', `/api/payments/${payment.id}/reverse`, {
      body: { version: payment.version, reason: 'Duplicado' },
    });
    const reversed = pdfText((await t.call('GET', `/api/payments/${payment.id}/proof.pdf`)).rawPayload);
    expect(reversed).toContain('ANULADO');
    expect(reversed).toContain('Duplicado');
  });
});

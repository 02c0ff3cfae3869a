import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  customerLedgerMismatches,
  expectMarkedPaidOnce,
  expectReversedForGood,
  movementLedgerEntries,
  openAmountOf,
} from '../../../test/commercial.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { insertCustomer, insertIssuedSale } from '../../../test/sales-factory.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Collections (issue 18): allocation, on account, reversal, paid, idempotency, receipt, the ledger invariant. */
describe.each(availableBackends())('collections on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { firstName: 'Lucía', lastName: 'Fernández' } });

  afterEach(async () => {
    expect(await customerLedgerMismatches(t)).toEqual([]);
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  const key = () => `test-${randomUUID()}`;
  const collect = (body: Record<string, unknown>, idempotencyKey: string = key(), token?: string) =>
    t.call('POST', '/api/collections', {
      body: { date: '2026-10-15', amount: '100.00', currency: 'argentine_peso', method: 'cash_payment', ...body },
      headers: { 'idempotency-key': idempotencyKey },
      ...(token ? { token } : {}),
    });
  const balanceOf = async (customerId: string) => {
    const { rows } = await t.db.orm.execute<{ balance: string }>(
      sql`select (debits - credits)::text as balance from party_balances where party_kind = 'customer' and party_id = ${customerId}::uuid`,
    );
    return rows[0]?.balance ?? '0.00';
  };

  it('validates each field with its code and never answers 500', async () => {
    const customerId = await insertCustomer(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId: 'nope' }, 'customerId'],
      [{ customerId: undefined }, 'customerId'],
      [{ customerId, amount: '0' }, 'amount'],
      [{ customerId, amount: '-5' }, 'amount'],
      [{ customerId, amount: 'abc' }, 'amount'],
      [{ customerId, date: '2026-02-30' }, 'date'],
      [{ customerId, method: 'cheque' }, 'method'],
      [{ customerId, currency: 'yen' }, 'currency'],
      [{ customerId, status: 'maybe' }, 'status'],
      [{ customerId, notes: 'a\u0000b' }, 'notes'],
      [{ customerId, allocations: [{ documentId: 'x', amount: '1' }] }, 'allocations.0.documentId'],
    ];
    for (const [body, field] of cases) {
      const response = await collect(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const fields = response.json().details.fields as { path: string; code: string }[];
      expect(
        fields.map((f) => f.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    const missing = await t.call('POST', '/api/collections', {
      body: { customerId, date: '2026-10-15', amount: '1', currency: 'argentine_peso', method: 'cash_payment' },
      idempotencyKey: null,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('idempotency_key_required');
    const unknownCustomer = await collect({ customerId: randomUUID() });
    expect(unknownCustomer.statusCode).toBe(404);
    expect(unknownCustomer.json().code).toBe('customer_not_found');
    const unknownPatient = await collect({ patientId: randomUUID() });
    expect(unknownPatient.statusCode).toBe(404);
    expect(unknownPatient.json().code).toBe('patient_not_found');
  });

  it("collects from a patient (the patient's customer is made once) and answers the patient's balance", async () => {
    const patientId = await t.newPatient(undefined, { firstName: 'Mateo', lastName: 'Gómez' });
    const none = await t.call('GET', `/api/patients/${patientId}/balance`);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().data).toMatchObject({ customerId: null, balance: '0.00', onAccount: '0.00' });
    const sale = await insertIssuedSale(t, { patientId, net: '100', date: '2026-09-01', dueDate: '2026-09-10' });
    const created = await collect({ patientId, amount: '50.00', allocations: [{ documentId: sale.id, amount: '50' }] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({
      customerId: sale.customerId,
      customerKind: 'patient',
      patientId,
      customerName: 'Gómez, Mateo',
      allocatedAmount: '50.00',
    });
    const balance = await t.call('GET', `/api/patients/${patientId}/balance`);
    expect(balance.json().data).toMatchObject({
      customerId: sale.customerId,
      balance: '71.00',
      overdue: '71.00',
      onAccount: '0.00',
    });
    const byPatient = await t.call('GET', `/api/collections?patientId=${patientId}`);
    expect(byPatient.json().total).toBe(1);
    expect((await t.call('GET', `/api/patients/${randomUUID()}/balance`)).statusCode).toBe(404);
  });

  it('allocates partly, refuses over-allocation, keeps the remainder on account and allocates it later', async () => {
    const customerId = await insertCustomer(t);
    const a = await insertIssuedSale(t, { customerId, net: '1000', date: '2026-09-01', dueDate: '2026-09-01' }); // 1210
    const b = await insertIssuedSale(t, { customerId, net: '500', date: '2026-08-10', dueDate: '2026-10-10' }); // 605

    const open = await t.call('GET', `/api/customers/${customerId}/open-documents`);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().data.documents.map((d: { id: string }) => d.id)).toEqual([a.id, b.id]);
    expect(open.json().data).toMatchObject({ balance: '1815.00', onAccount: '0.00' });

    const over = await collect({ customerId, amount: '100.00', allocations: [{ documentId: a.id, amount: '100.01' }] });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('payment_over_allocation');
    const aboveDocument = await collect({
      customerId,
      amount: '5000.00',
      allocations: [{ documentId: b.id, amount: '605.01' }],
    });
    expect(aboveDocument.statusCode).toBe(409);
    expect(aboveDocument.json().code).toBe('payment_over_allocation');
    const otherCustomer = await insertCustomer(t);
    const theirs = await insertIssuedSale(t, { customerId: otherCustomer, net: '10' });
    const notTheirs = await collect({ customerId, allocations: [{ documentId: theirs.id, amount: '1' }] });
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().code).toBe('sale_not_found');
    // Issue 35: a sale in another currency cannot exist; a collection in another currency is refused.
    await expect(insertIssuedSale(t, { customerId, currency: 'us_dollar', net: '10' })).rejects.toThrow();
    const mismatch = await collect({ customerId, currency: 'euro', allocations: [{ documentId: a.id, amount: '1' }] });
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().code).toBe('currency_not_clinic');

    const created = await collect({
      customerId,
      amount: '1500.00',
      method: 'bank_transfer',
      transactionNumber: 'TRF-112233',
      allocations: [{ documentId: a.id, amount: '1210.00' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const collection = created.json().data;
    expect(created.json().code).toBe('collection_created');
    expect(collection.number).toMatch(/^RC-\d{6}$/);
    expect(collection).toMatchObject({
      status: 'paid',
      paidOn: '2026-10-15',
      allocatedAmount: '1210.00',
      unallocatedAmount: '290.00',
      customerId,
    });
    expect(collection.counterpartySnapshot.name).toMatch(/^Obra Social Norte/);
    expect(await openAmountOf(t, a.id)).toBe('0.00');
    // 1815 − 1500 collected; 290 on account.
    expect(await balanceOf(customerId)).toBe('315.00');
    const afterOpen = await t.call('GET', `/api/customers/${customerId}/open-documents`);
    expect(afterOpen.json().data).toMatchObject({ balance: '315.00', onAccount: '290.00' });

    const tooMuch = await t.call('POST', `/api/collections/${collection.id}/allocate`, {
      body: { version: collection.version, allocations: [{ documentId: b.id, amount: '290.01' }] },
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('payment_over_allocation');
    const stale = await t.call('POST', `/api/collections/${collection.id}/allocate`, {
      body: { version: collection.version + 5, allocations: [{ documentId: b.id, amount: '1' }] },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');
    const empty = await t.call('POST', `/api/collections/${collection.id}/allocate`, {
      body: { version: collection.version, allocations: [] },
    });
    expect(empty.statusCode).toBe(400);

    const later = await t.call('POST', `/api/collections/${collection.id}/allocate`, {
      body: { version: collection.version, allocations: [{ documentId: b.id, amount: '290.00' }] },
    });
    expectAnswer(later, 200, {
      code: 'collection_allocated',
      data: { allocatedAmount: '1500.00', unallocatedAmount: '0.00' },
    });
    expect(later.json().data.allocations).toHaveLength(2);
    expect(await openAmountOf(t, b.id)).toBe('315.00');
    expect(await balanceOf(customerId)).toBe('315.00');
    const events = await t.auditEvents('collection_allocated');
    expect(events.find((event) => event.entityId === collection.id)?.after).toMatchObject({
      allocatedAmount: '1500.00',
    });
    expect((await t.auditEvents('collection_created')).some((event) => event.entityId === collection.id)).toBe(true);
  });

  it('reverses a collection: the sales owe again, a reversal entry, a second reversal is refused', async () => {
    const customerId = await insertCustomer(t);
    const a = await insertIssuedSale(t, { customerId, net: '100' }); // 121.00
    const created = await collect({ customerId, amount: '200.00', allocations: [{ documentId: a.id, amount: '121' }] });
    const collection = created.json().data;
    expect(await openAmountOf(t, a.id)).toBe('0.00');
    expect(await balanceOf(customerId)).toBe('-79.00');

    const asUser = await t.asLevel('user', () =>
      t.call('POST', `/api/collections/${collection.id}/reverse`, {
        body: { version: collection.version, reason: 'Error' },
      }),
    );
    expect(asUser.statusCode).toBe(403);
    const missingReason = await t.call('POST', `/api/collections/${collection.id}/reverse`, {
      body: { version: collection.version, reason: '' },
    });
    expect(missingReason.statusCode).toBe(400);

    const reversed = await t.call('POST', `/api/collections/${collection.id}/reverse`, {
      body: { version: collection.version, reason: 'Cheque rechazado' },
    });
    expectAnswer(reversed, 200, {
      code: 'collection_reversed',
      data: { reversalReason: 'Cheque rechazado', allocatedAmount: '121.00', unallocatedAmount: '0.00' },
    });
    expect(reversed.json().data.allocations[0].reversed).toBe(true);
    expect(await openAmountOf(t, a.id)).toBe('121.00');
    expect(await balanceOf(customerId)).toBe('121.00');
    expect(await movementLedgerEntries(t, collection.id)).toEqual([
      { kind: 'payment', debit: '0.00', credit: '200.00' },
      { kind: 'payment_reversal', debit: '200.00', credit: '0.00' },
    ]);
    await expectReversedForGood(t, 'collection', reversed.json().data, {
      allocate: 'allocate',
      documentId: a.id,
      audited: { reason: 'Cheque rechazado', reallocatedToDocuments: '121.00' },
      party: `customerId=${customerId}`,
    });
  });

  it('marks a pending collection paid once', async () => {
    const customerId = await insertCustomer(t);
    const created = await collect({ customerId, status: 'pending', method: 'bank_deposit' });
    await expectMarkedPaidOnce(t, 'collection', created, `customerId=${customerId}`);
  });

  it('answers the same collection for the same key sent at once, refuses the key with another body', async () => {
    const customerId = await insertCustomer(t);
    const sale = await insertIssuedSale(t, { customerId, net: '100' });
    const idempotencyKey = key();
    const body = { customerId, amount: '55.00', allocations: [{ documentId: sale.id, amount: '55.00' }] };
    const concurrency = backend === 'postgres' ? 30 : 5;
    const answers = await Promise.all(Array.from({ length: concurrency }, () => collect(body, idempotencyKey)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((answer) => answer.json().data.id)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.json().data.number)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(concurrency - 1);
    const { rows } = await t.db.orm.execute<{ n: number }>(
      sql`select count(*)::int as n from payments where customer_id = ${customerId}::uuid`,
    );
    expect(rows[0]?.n).toBe(1);
    expect(await openAmountOf(t, sale.id)).toBe('66.00');
    const reused = await collect({ customerId, amount: '56.00' }, idempotencyKey);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency_key_reused');
  });

  it("answers 404 for another clinic's collection and customer, and follows the permission matrix", async () => {
    const customerId = await insertCustomer(t);
    const created = await collect({ customerId });
    const collection = created.json().data;
    const other = t.other.token;
    for (const url of [
      `/api/collections/${collection.id}`,
      `/api/collections/${collection.id}/receipt`,
      `/api/customers/${customerId}/open-documents`,
      `/api/patients/${t.patientId}/balance`,
    ]) {
      expect((await t.call('GET', url, { token: other })).statusCode, url).toBe(404);
    }
    const theirs = await collect({ customerId }, key(), other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('customer_not_found');
    const paidByOther = await t.call('POST', `/api/collections/${collection.id}/paid`, {
      token: other,
      body: { version: collection.version, paidOn: '2026-10-20' },
    });
    expect(paidByOther.statusCode).toBe(404);
    expect(paidByOther.json().code).toBe('collection_not_found');
    const otherList = await t.call('GET', '/api/collections', { token: other });
    expect(otherList.json().data.some((c: { id: string }) => c.id === collection.id)).toBe(false);

    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/collections')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/collections/${collection.id}/receipt`)).statusCode).toBe(403);
      expect((await collect({ customerId })).statusCode).toBe(403);
    });
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/collections')).statusCode).toBe(200);
      expect((await collect({ customerId })).statusCode).toBe(201);
    });
    await t.asLevel('supervisor', async () => {
      const again = await t.call('GET', `/api/collections/${collection.id}`);
      const reversed = await t.call('POST', `/api/collections/${collection.id}/reverse`, {
        body: { version: again.json().data.version, reason: 'Prueba' },
      });
      expect(reversed.statusCode).toBe(200);
    });
  });

  it('lists with search, filters and sort', async () => {
    const customerId = await insertCustomer(t, { name: 'Mutual Rivadavia Salud' });
    await collect({ customerId, date: '2026-01-10', amount: '10.00', transactionNumber: 'ZX-998877' });
    await collect({ customerId, date: '2026-02-10', amount: '30.00', method: 'debit_card' });
    await collect({ customerId, date: '2026-03-10', amount: '20.00' });
    const all = await t.call('GET', `/api/collections?customerId=${customerId}`);
    expect(all.json().data.map((c: { date: string }) => c.date)).toEqual(['2026-03-10', '2026-02-10', '2026-01-10']);
    const byAmount = await t.call('GET', `/api/collections?customerId=${customerId}&sort=-amount`);
    expect(byAmount.json().data.map((c: { amount: string }) => c.amount)).toEqual(['30.00', '20.00', '10.00']);
    const range = await t.call('GET', `/api/collections?customerId=${customerId}&from=2026-02-01&to=2026-02-28`);
    expect(range.json().total).toBe(1);
    const byMethod = await t.call('GET', `/api/collections?customerId=${customerId}&method=debit_card`);
    expect(byMethod.json().data.map((c: { amount: string }) => c.amount)).toEqual(['30.00']);
    const searched = await t.call('GET', '/api/collections?q=998877');
    expect(searched.json().data.map((c: { transactionNumber: string }) => c.transactionNumber)).toEqual(['ZX-998877']);
    const byName = await t.call('GET', `/api/collections?q=${encodeURIComponent('rivadavia')}`);
    expect(byName.json().total).toBe(3);
    expect((await t.call('GET', '/api/collections?from=2026-13-01')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/collections?sort=nope')).statusCode).toBe(400);
    const providerSide = await t.call('GET', '/api/payments?pageSize=100');
    expect(providerSide.json().data.some((p: { number: string }) => p.number.startsWith('RC-'))).toBe(false);
  });

  it("prints the receipt in the customer's language, with the reversal stamp", async () => {
    const customerId = await insertCustomer(t, { name: 'Clínica Dental Norte SA' });
    const a = await insertIssuedSale(t, { customerId, net: '100' });
    const created = await collect({
      customerId,
      amount: '150.00',
      method: 'credit_card',
      transactionNumber: 'POS-4455',
      allocations: [{ documentId: a.id, amount: '121.00' }],
    });
    const collection = created.json().data;
    const response = await t.call('GET', `/api/collections/${collection.id}/receipt`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Recibo de cobro');
    expect(text).toContain(collection.number);
    expect(text).toContain('Clínica Dental Norte SA');
    expect(text).toContain('POS-4455');
    expect(text).toContain(`Factura ${a.number}`);
    expect(text).toContain('Queda a cuenta');
    expect(text).toContain('Son pesos ciento cincuenta con 00/100.');
    const english = await insertCustomer(t, { name: 'Dental Care Ltd', language: 'en' });
    const theirs = await collect({ customerId: english, amount: '10.00' });
    const englishText = pdfText((await t.call('GET', `/api/collections/${theirs.json().data.id}/receipt`)).rawPayload);
    expect(englishText).toContain('Payment receipt');
    expect(englishText).toContain('The sum of ten Argentine pesos and 00/100.');
    await t.call('POST', `/api/collections/${collection.id}/reverse`, {
      body: { version: collection.version, reason: 'Duplicado' },
    });
    const reversed = pdfText((await t.call('GET', `/api/collections/${collection.id}/receipt`)).rawPayload);
    expect(reversed).toContain('ANULADO');
    expect(reversed).toContain('Duplicado');
  });

  describe('split across methods (issue 35, item 13)', () => {
    const day = '2026-10-20';
    const cashOf = async () => {
      const report = await t.call('GET', `/api/reports/daily-cash?from=${day}&to=${day}`);
      expect(report.statusCode, report.body).toBe(200);
      return (report.json().data.rows as { method: string; count: number; amount: string }[]).map((row) => [
        row.method,
        row.count,
        row.amount,
      ]);
    };

    it('one collection, cash + card: one receipt number, both parts stored, printed and counted by method', async () => {
      const customerId = await insertCustomer(t);
      const sale = await insertIssuedSale(t, { customerId, net: '10000' }); // 12,100.00
      const idempotencyKey = key();
      const body = {
        customerId,
        date: day,
        // Typed as an es-AR user writes them.
        amount: '20.000,50',
        method: undefined,
        parts: [
          { method: 'cash_payment', amount: '12.500,50' },
          { method: 'credit_card', amount: '7.500,00', transactionNumber: 'POS-8841' },
        ],
        allocations: [{ documentId: sale.id, amount: '12100' }],
      };
      const created = await collect(body, idempotencyKey);
      expect(created.statusCode, created.body).toBe(201);
      const collection = created.json().data;
      expect(collection).toMatchObject({
        number: expect.stringMatching(/^RC-\d{6}$/),
        amount: '20000.50',
        method: 'cash_payment',
        parts: [
          { method: 'cash_payment', amount: '12500.50', transactionNumber: null },
          { method: 'credit_card', amount: '7500.00', transactionNumber: 'POS-8841' },
        ],
        allocatedAmount: '12100.00',
        unallocatedAmount: '7900.50',
      });
      // The same key answers the same collection: one receipt, never two.
      const again = await collect(body, idempotencyKey);
      expect(again.json().data.id).toBe(collection.id);
      expect((await t.call('GET', `/api/collections?customerId=${customerId}`)).json().total).toBe(1);
      // Listed under either method.
      for (const method of ['cash_payment', 'credit_card']) {
        const listed = await t.call('GET', `/api/collections?customerId=${customerId}&method=${method}`);
        expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([collection.id]);
      }
      expect((await t.call('GET', `/api/collections?customerId=${customerId}&method=wallet`)).json().total).toBe(0);

      const receipt = pdfText((await t.call('GET', `/api/collections/${collection.id}/receipt`)).rawPayload);
      expect(receipt).toContain(collection.number);
      expect(receipt).toContain('Efectivo');
      expect(receipt).toContain('Tarjeta de crédito');
      expect(receipt).toContain('POS-8841');

      // Collections by method count each part under its own method; the dashboard reads the same figure.
      expect(await cashOf()).toEqual([
        ['cash_payment', 1, '12500.50'],
        ['credit_card', 1, '7500.00'],
      ]);
      const dashboard = await t.call('GET', `/api/dashboard?from=${day}&to=${day}`);
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      expect(dashboard.json().data.financial.collections).toEqual({
        total: '20000.50',
        byMethod: expect.arrayContaining([
          { method: 'cash_payment', amount: '12500.50', count: 1 },
          { method: 'credit_card', amount: '7500.00', count: 1 },
        ]),
      });

      // A reversal reverses the whole collection: both parts leave the figures.
      const reversed = await t.call('POST', `/api/collections/${collection.id}/reverse`, {
        body: { version: collection.version, reason: 'Cargado dos veces' },
      });
      expect(reversed.statusCode, reversed.body).toBe(200);
      expect(reversed.json().data.allocations[0].reversed).toBe(true);
      expect(await openAmountOf(t, sale.id)).toBe('12100.00');
      expect(await cashOf()).toEqual([]);
    });

    it('refuses parts that do not add up, too many parts or neither method nor parts; the database too', async () => {
      const customerId = await insertCustomer(t);
      const cases: [Record<string, unknown>, string, string][] = [
        [
          {
            customerId,
            method: undefined,
            parts: [
              { method: 'cash_payment', amount: '60' },
              { method: 'debit_card', amount: '30' },
            ],
          },
          'parts',
          'parts_total_mismatch',
        ],
        [
          {
            customerId,
            amount: '11',
            method: undefined,
            parts: Array.from({ length: 11 }, () => ({ method: 'cash_payment', amount: '1' })),
          },
          'parts',
          'too_big',
        ],
        [{ customerId, method: undefined }, 'method', 'required'],
        [{ customerId, method: undefined, parts: [] }, 'parts', 'required'],
        [
          { customerId, method: undefined, parts: [{ method: 'cash_payment', amount: '0' }] },
          'parts.0.amount',
          'too_small',
        ],
        [
          { customerId, method: undefined, parts: [{ method: 'cheque', amount: '100' }] },
          'parts.0.method',
          'invalid_value',
        ],
      ];
      for (const [body, path, code] of cases) {
        const response = await collect(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        const fields = response.json().details.fields as { path: string; code: string }[];
        expect(fields.find((field) => field.path === path)?.code, `${JSON.stringify(body)} ${response.body}`).toBe(
          code,
        );
      }
      // A single-method collection is one part, as every collection before parts existed (migration 0030).
      const single = await collect({ customerId, amount: '100', method: 'bank_transfer', transactionNumber: 'TRF-1' });
      expect(single.statusCode, single.body).toBe(201);
      expect(single.json().data.parts).toEqual([
        { method: 'bank_transfer', amount: '100.00', transactionNumber: 'TRF-1' },
      ]);
      // Around the service: `payments_parts` refuses a row whose parts do not add up to its amount.
      const id = single.json().data.id as string;
      await expect(
        t.db.withTenant(t.clinic.accountId, (tx) =>
          tx.execute(sql`
            insert into payments (account_id, id, side, number, customer_id, date, amount, currency, method, parts, status)
            select account_id, ${randomUUID()}::uuid, side, 'RC-TEST', customer_id, date, amount, currency, method,
              '[{"method": "cash_payment", "amount": "60.00"}]'::jsonb, status
            from payments where id = ${id}::uuid`),
        ),
      ).rejects.toThrow();
    });
  });
});

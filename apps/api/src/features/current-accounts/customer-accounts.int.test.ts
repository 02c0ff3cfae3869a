import { randomUUID } from 'node:crypto';
import type { customerAccountsPageSchema } from '@odontia/shared/schemas/current-accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { customerLedgerMismatches, ledgerMismatches } from '../../../test/commercial.ts';
import * as accounts from '../../../test/current-accounts.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { insertCustomer, insertIssuedSale } from '../../../test/sales-factory.ts';
import { type Answer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Customers' current accounts (issue 18): balances, aging on the clinic's today, the ledger, the statement. */
describe.each(availableBackends())("customers' current accounts on %s", (backend) => {
  const t = useTestClinic(backend);

  afterEach(async () => {
    restoreClock();
    expect(await customerLedgerMismatches(t)).toEqual([]);
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  const collect = accounts.recordMovement(t, '/api/collections', 'cash_payment');

  async function agedCustomer(name: string) {
    const customerId = await insertCustomer(t, { name });
    await accounts.ageParty(
      (document) => insertIssuedSale(t, { customerId, ...document }),
      (body) => collect({ customerId, ...body }),
    );
    return customerId;
  }

  it('lists balances, overdue and aging on the clinic today, with totals; balance = Σ aging − on account', async () => {
    const customerId = await agedCustomer('Aging Obra Social');
    const idle = await insertCustomer(t, { name: 'Aging Sin Movimientos' });
    const { page, account } = await accounts.expectAgedAccountOnNovember15(
      t,
      '/api/current-accounts/customers',
      (row: Answer<typeof customerAccountsPageSchema>['data'][number]) => row.customerId,
      { aged: customerId, idle },
      { name: 'Aging Obra Social', kind: 'company', currency: 'argentine_peso' },
    );
    // Sorted by name and by overdue (each party's overdue documents summed for the order), the
    // page-first statement answers the same accounts and totals.
    const byOverdue = await t.call('GET', '/api/current-accounts/customers?q=aging&pageSize=50&sort=-overdue');
    expect(byOverdue.json<{ totals: Record<string, string> }>().totals).toEqual(page.totals);
    expect(byOverdue.json().data.find((row: { customerId: string }) => row.customerId === customerId)).toEqual(account);
    await accounts.expectPagedTotalsAgree(t, '/api/current-accounts/customers', [
      '',
      '?withBalance=true',
      '?kind=company',
      '?page=2&pageSize=1',
    ]);

    const withBalance = await t.call('GET', '/api/current-accounts/customers?q=aging&withBalance=true');
    expect(withBalance.json().data.map((row: { customerId: string }) => row.customerId)).toEqual([customerId]);
    const byBalance = await t.call('GET', '/api/current-accounts/customers?q=aging&sort=balance');
    expect(byBalance.json().data.map((row: { customerId: string }) => row.customerId)).toEqual([idle, customerId]);
    const patients = await t.call('GET', '/api/current-accounts/customers?q=aging&kind=patient');
    expect(patients.json().total).toBe(0);

    setClock('2026-10-20T15:00:00Z');
    const earlier = await t.call('GET', '/api/current-accounts/customers?q=obra');
    expect(earlier.json().data[0].aging).toEqual(accounts.agingOnOctober20);

    await accounts.expectAccountsCsv(
      t,
      '/api/current-accounts/customers/export.csv?q=aging',
      'Cliente',
      'Aging Obra Social',
    );
    expect((await t.call('GET', '/api/current-accounts/customers?sort=nope')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/current-accounts/customers?kind=robot')).statusCode).toBe(400);
  });

  it("shows a customer's ledger with the opening balance carried in, its CSV and its statement PDF", async () => {
    const customerId = await insertCustomer(t, { name: 'Ledger Mutual' });
    const first = await insertIssuedSale(t, { customerId, date: '2026-01-10', net: '1000' }); // 1210
    const collection = await collect({
      customerId,
      date: '2026-02-01',
      amount: '500.00',
      allocations: [{ documentId: first.id, amount: '500.00' }],
    });
    const second = await insertIssuedSale(t, { customerId, date: '2026-03-05', net: '200' }); // 242
    const other = await collect({ customerId, date: '2026-03-20', amount: '100.00' });
    await insertIssuedSale(t, { customerId, date: '2026-05-01', net: '10' }); // after the range

    const response = await t.call(
      'GET',
      `/api/current-accounts/customers/${customerId}/ledger?startDate=2026-02-01&endDate=2026-03-31`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const ledger = response.json().data;
    expect(ledger.openingBalance).toBe('1210.00');
    expect(accounts.ledgerRows(ledger)).toEqual([
      ['2026-02-01', `Cobro ${collection.number}`, '0.00', '500.00', '710.00'],
      ['2026-03-05', `Factura ${second.number}`, '242.00', '0.00', '952.00'],
      ['2026-03-20', `Cobro ${other.number}`, '0.00', '100.00', '852.00'],
    ]);
    expect(ledger.totals).toEqual({ debit: '242.00', credit: '600.00' });
    expect(ledger.closingBalance).toBe('852.00');
    expect(ledger.account.balance).toBe('864.10');

    const whole = await t.call(
      'GET',
      `/api/current-accounts/customers/${customerId}/ledger?startDate=2025-01-01&endDate=2026-12-31`,
    );
    expect(whole.json().data.openingBalance).toBe('0.00');
    expect(whole.json().data.entries[0].reference).toBe(`Factura ${first.number}`);
    expect(whole.json().data.closingBalance).toBe(whole.json().data.account.balance);

    const party = `/api/current-accounts/customers/${customerId}`;
    const pdf = await accounts.expectLedgerExports(
      t,
      party,
      `${party}/ledger`,
      '2026-03-31;Saldo final;;;242,00;600,00;852,00',
    );
    const statement = pdfText(pdf.rawPayload);
    expect(statement).toContain(`Factura ${second.number}`);
    // A collection's line names it once (its reference), as the screen does.
    expect(statement.split(collection.number)).toHaveLength(2);
  });

  it('sends the statement by e-mail with the PDF, or 409 when the customer has no e-mail', async () => {
    const customerId = await insertCustomer(t, { name: 'Statement Seguros', email: 'pagos@seguros.example' });
    await insertIssuedSale(t, { customerId, date: '2026-03-05', net: '200' });
    const sent = await t.call('POST', `/api/current-accounts/customers/${customerId}/statement/send`, {
      body: { startDate: '2026-01-01', endDate: '2026-03-31' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ code: 'statement_sent', data: { to: 'pagos@seguros.example' } });
    const mail = t.mailer.lastTo('pagos@seguros.example');
    expect(mail?.subject).toContain('Estado de cuenta');
    expect(mail?.text).toContain('Estimado/a Statement Seguros:');
    expect(mail?.attachments?.[0]?.contentType).toBe('application/pdf');
    expect(mail?.attachments?.[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.auditEvents('statement_sent')).some((event) => event.entityId === customerId)).toBe(true);

    const withoutEmail = await insertCustomer(t, { email: null });
    const refused = await t.call('POST', `/api/current-accounts/customers/${withoutEmail}/statement/send`, {
      body: { startDate: '2026-01-01', endDate: '2026-03-31' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('customer_without_email');
    const badRange = await t.call('POST', `/api/current-accounts/customers/${customerId}/statement/send`, {
      body: { startDate: '2026-03-31', endDate: '2026-01-01' },
    });
    expect(badRange.statusCode).toBe(400);

    t.mailer.failing = true;
    try {
      const failed = await t.call('POST', `/api/current-accounts/customers/${customerId}/statement/send`, {
        body: { startDate: '2026-01-01', endDate: '2026-03-31' },
      });
      expect(failed.statusCode).toBe(502);
      expect(failed.json().code).toBe('error_sending_email');
    } finally {
      t.mailer.failing = false;
    }
    await t.asLevel('customer', async () => {
      const denied = await t.call('POST', `/api/current-accounts/customers/${customerId}/statement/send`, {
        body: { startDate: '2026-01-01', endDate: '2026-03-31' },
      });
      expect(denied.statusCode).toBe(403);
    });
  });

  it("answers 404 for another clinic's customer and follows the permission matrix", async () => {
    const customerId = await insertCustomer(t);
    const range = 'startDate=2026-01-01&endDate=2026-12-31';
    const other = t.other.token;
    const list = '/api/current-accounts/customers';
    await accounts.expectLedgerHidden(
      t,
      `${list}/${customerId}`,
      `${list}/${randomUUID()}`,
      '/ledger',
      'customer_not_found',
    );
    const sent = await t.call('POST', `/api/current-accounts/customers/${customerId}/statement/send`, {
      token: other,
      body: { startDate: '2026-01-01', endDate: '2026-03-31' },
    });
    expect(sent.statusCode).toBe(404);
    const theirs = await t.call('GET', '/api/current-accounts/customers?pageSize=100', { token: other });
    expect(theirs.json().data.some((row: { customerId: string }) => row.customerId === customerId)).toBe(false);
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/current-accounts/customers')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/current-accounts/customers/${customerId}/ledger?${range}`)).statusCode).toBe(
        403,
      );
    });
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/current-accounts/customers')).statusCode).toBe(200);
    });
  });
});

import { randomUUID } from 'node:crypto';
import type { providerAccountsPageSchema } from '@odontia/shared/schemas/current-accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { insertProvider, insertRegisteredPurchase, ledgerMismatches } from '../../../test/commercial.ts';
import * as accounts from '../../../test/current-accounts.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { type Answer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Provider current accounts (issue 17): balances, aging on the clinic's today, the ledger and its exports. */
describe.each(availableBackends())('provider current accounts on %s', (backend) => {
  const t = useTestClinic(backend);

  afterEach(async () => {
    restoreClock();
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  const pay = accounts.recordMovement(t, '/api/payments', 'bank_transfer');

  async function agedProvider(name: string) {
    const providerId = await insertProvider(t, { fantasyName: name });
    await accounts.ageParty(
      (document) => insertRegisteredPurchase(t, { providerId, ...document }),
      (body) => pay({ providerId, ...body }),
    );
    return providerId;
  }

  it('lists balances, overdue and aging on the clinic today, with totals; balance = Σ aging − on account', async () => {
    const providerId = await agedProvider('Aging Depósito Dental');
    const idle = await insertProvider(t, { fantasyName: 'Aging Sin Movimientos' });
    await accounts.expectAgedAccountOnNovember15(
      t,
      '/api/current-accounts/providers',
      (row: Answer<typeof providerAccountsPageSchema>['data'][number]) => row.providerId,
      { aged: providerId, idle },
      { name: 'Aging Depósito Dental' },
    );
    await accounts.expectPagedTotalsAgree(t, '/api/current-accounts/providers', [
      '',
      '?withBalance=true',
      '?page=2&pageSize=1',
    ]);

    const withBalance = await t.call('GET', '/api/current-accounts/providers?q=aging&withBalance=true');
    expect(withBalance.json().data.map((row: { providerId: string }) => row.providerId)).toEqual([providerId]);
    const byBalance = await t.call('GET', '/api/current-accounts/providers?q=aging&sort=balance');
    expect(byBalance.json().data.map((row: { providerId: string }) => row.providerId)).toEqual([idle, providerId]);
    const byOverdue = await t.call('GET', '/api/current-accounts/providers?q=aging&sort=-overdue');
    expect(byOverdue.json().data[0].providerId).toBe(providerId);

    // Seen on an earlier day, the same documents sit in younger buckets (a later day would
    // expire the test session: the clock only moves back here).
    setClock('2026-10-20T15:00:00Z');
    const later = await t.call('GET', `/api/current-accounts/providers?q=${encodeURIComponent('depósito')}`);
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().data[0].aging).toEqual(accounts.agingOnOctober20);
    expect(later.json().data[0].balance).toBe('444.50');

    await accounts.expectAccountsCsv(
      t,
      '/api/current-accounts/providers/export.csv?q=aging',
      'Proveedor',
      'Aging Depósito Dental',
    );
    expect((await t.call('GET', '/api/current-accounts/providers?sort=nope')).statusCode).toBe(400);
  });

  it("shows a provider's ledger with the opening balance carried in and a running balance", async () => {
    const providerId = await insertProvider(t, { fantasyName: 'Ledger Implantes' });
    const first = await insertRegisteredPurchase(t, {
      providerId,
      date: '2026-01-10',
      net: '1000',
      number: '00001234',
    }); // 1210
    const payment = await pay({
      providerId,
      date: '2026-02-01',
      amount: '500.00',
      allocations: [{ documentId: first.id, amount: '500.00' }],
    });
    await insertRegisteredPurchase(t, { providerId, date: '2026-03-05', net: '200', number: '00001240' }); // 242
    const second = await pay({ providerId, date: '2026-03-20', amount: '100.00' });
    await insertRegisteredPurchase(t, { providerId, date: '2026-05-01', net: '10' }); // after the range

    const response = await t.call(
      'GET',
      `/api/current-accounts/providers/${providerId}?startDate=2026-02-01&endDate=2026-03-31`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const ledger = response.json().data;
    expect(ledger.openingBalance).toBe('1210.00');
    expect(accounts.ledgerRows(ledger)).toEqual([
      ['2026-02-01', `Pago ${payment.number}`, '500.00', '0.00', '710.00'],
      ['2026-03-05', 'Factura 0001-00001240', '0.00', '242.00', '952.00'],
      ['2026-03-20', `Pago ${second.number}`, '100.00', '0.00', '852.00'],
    ]);
    expect(ledger.totals).toEqual({ debit: '600.00', credit: '242.00' });
    expect(ledger.closingBalance).toBe('852.00');
    expect(ledger.account.balance).toBe('864.10');

    const whole = await t.call(
      'GET',
      `/api/current-accounts/providers/${providerId}?startDate=2025-01-01&endDate=2026-12-31`,
    );
    expect(whole.json().data.openingBalance).toBe('0.00');
    expect(whole.json().data.entries[0].reference).toBe('Factura 0001-00001234');
    expect(whole.json().data.closingBalance).toBe(whole.json().data.account.balance);

    const party = `/api/current-accounts/providers/${providerId}`;
    await accounts.expectLedgerExports(t, party, party, '2026-03-31;Saldo final;;;600,00;242,00;852,00');
    expect((await t.call('GET', `/api/current-accounts/providers/${providerId}?startDate=2026-02-01`)).statusCode).toBe(
      400,
    );
  });

  it("answers 404 for another clinic's provider and follows the permission matrix", async () => {
    const providerId = await insertProvider(t);
    const range = 'startDate=2026-01-01&endDate=2026-12-31';
    const other = t.other.token;
    const list = '/api/current-accounts/providers';
    await accounts.expectLedgerHidden(t, `${list}/${providerId}`, `${list}/${randomUUID()}`, '', 'provider_not_found');
    const theirs = await t.call('GET', '/api/current-accounts/providers?pageSize=100', { token: other });
    expect(theirs.json().data.some((row: { providerId: string }) => row.providerId === providerId)).toBe(false);
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/current-accounts/providers')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/current-accounts/providers/${providerId}?${range}`)).statusCode).toBe(403);
    });
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/current-accounts/providers')).statusCode).toBe(200);
    });
  });
});

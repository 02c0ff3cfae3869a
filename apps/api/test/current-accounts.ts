import { randomUUID } from 'node:crypto';
import type { DocumentType } from '@odontia/shared/enums';
import { expect } from 'vitest';
import { setClock } from './clock.ts';
import type { TestClinicContext } from './test-clinic.ts';

/*
 * What the customers' and the providers' current-account tests share (issues 17, 18): the money
 * movement recorded through the API, the aged party both sides build, the expected aging, and the
 * checks of the page totals, the ledger's rows, its exports and a reversed range.
 */

/** Records a collection (`/api/collections`) or a payment (`/api/payments`) through the API, answering 201. */
export function recordMovement(t: TestClinicContext, path: '/api/collections' | '/api/payments', method: string) {
  return async (body: Record<string, unknown>) => {
    const response = await t.call('POST', path, {
      body: { date: '2026-11-01', currency: 'argentine_peso', method, ...body },
      headers: { 'idempotency-key': `test-${randomUUID()}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; number: string; version: number };
  };
}

interface DocumentFixture {
  documentType?: DocumentType;
  date: string;
  dueDate?: string;
  net: string;
  relatedDocumentId?: string;
}

/**
 * A party whose documents fall in every aging bucket on 2026-11-15: five of 121.00 due not yet,
 * 14, 45, 87 and 137 days ago, a credit note not yet applied (−60.50 open) and 100.00 left on account.
 */
export async function ageParty(
  insertDocument: (document: DocumentFixture) => Promise<{ id: string }>,
  recordOnAccount: (body: { amount: string; date: string }) => Promise<unknown>,
) {
  const dues = ['2026-11-20', '2026-11-01', '2026-10-01', '2026-08-20', '2026-07-01'];
  const documents = [];
  for (const due of dues) documents.push(await insertDocument({ date: due, dueDate: due, net: '100' }));
  await insertDocument({
    documentType: 'credit_note',
    date: '2026-10-05',
    net: '50',
    relatedDocumentId: documents[0]?.id as string,
  });
  await recordOnAccount({ amount: '100.00', date: '2026-11-02' });
}

/** The aged party's buckets on 2026-11-15 … */
export const agingOnNovember15 = {
  current: '121.00',
  days_0_30: '121.00',
  days_31_60: '121.00',
  days_61_90: '121.00',
  days_over_90: '121.00',
};

/** … and on 2026-10-20: the same documents in younger buckets. */
export const agingOnOctober20 = {
  current: '242.00',
  days_0_30: '121.00',
  days_31_60: '0.00',
  days_61_90: '121.00',
  days_over_90: '121.00',
};

/** The page-first statement and the one that ages every account answer the same totals. */
export async function expectPagedTotalsAgree(t: TestClinicContext, list: string, queries: string[]) {
  for (const query of queries) {
    const paged = await t.call('GET', `${list}${query}`);
    const aged = await t.call('GET', `${list}${query}${query ? '&' : '?'}sort=-overdue`);
    expect([paged.statusCode, aged.statusCode], query).toEqual([200, 200]);
    expect(paged.json<{ totals: Record<string, string> }>().totals.balance, query).toMatch(/^-?\d+\.\d{2}$/);
    expect(paged.json<{ totals: Record<string, string> }>().totals, query).toEqual(
      aged.json<{ totals: Record<string, string> }>().totals,
    );
    expect(paged.json().total, query).toBe(aged.json().total);
  }
}

/** The accounts' CSV export: the side's first header, the party's row with its balance. */
export async function expectAccountsCsv(t: TestClinicContext, url: string, firstHeader: string, name: string) {
  const csv = await t.call('GET', url);
  expect(csv.statusCode).toBe(200);
  expect(csv.headers['content-type']).toContain('text/csv');
  expect(csv.body.startsWith(`\uFEFF${firstHeader};`)).toBe(true);
  expect(csv.body).toContain(`${name};`);
  expect(csv.body).toContain(';444,50;');
}

/** A ledger's entries as [date, reference, debit, credit, balance]. */
export const ledgerRows = (ledger: { entries: Record<string, string>[] }) =>
  ledger.entries.map((entry) => [entry.date, entry.reference, entry.debit, entry.credit, entry.balance]);

const range = 'startDate=2026-02-01&endDate=2026-03-31';

/**
 * The ledger of February and March as CSV (opening 1210,00, `closing` as its last line) and as a
 * PDF, and the same range reversed refused (400 end_before_start) on `ledger`. Answers the PDF.
 */
export async function expectLedgerExports(t: TestClinicContext, party: string, ledger: string, closing: string) {
  const csv = await t.call('GET', `${party}/ledger.csv?${range}`);
  expect(csv.statusCode).toBe(200);
  const lines = csv.body.split('\r\n');
  expect(lines[0]).toBe('\uFEFFFecha;Comprobante;Descripción;Vencimiento;Debe;Haber;Saldo');
  expect(lines[1]).toBe('2026-02-01;Saldo inicial;;;;;1210,00');
  expect(lines.at(-2)).toBe(closing);

  const pdf = await t.call('GET', `${party}/ledger.pdf?${range}`);
  expect(pdf.statusCode).toBe(200);
  expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

  const reversedEnd = await t.call('GET', `${ledger}?startDate=2026-03-31&endDate=2026-02-01`);
  expect(reversedEnd.statusCode).toBe(400);
  expect(reversedEnd.json().details.fields[0]).toMatchObject({
    path: 'querystring.endDate',
    code: 'end_before_start',
  });
  return pdf;
}

/** Another clinic's party (and an unknown one) is 404 `code` on the ledger, its CSV and its PDF. */
export async function expectLedgerHidden(
  t: TestClinicContext,
  party: string,
  unknown: string,
  ledger: string,
  code: string,
) {
  const ranged = '?startDate=2026-01-01&endDate=2026-12-31';
  for (const url of [
    `${party}${ledger}${ranged}`,
    `${party}/ledger.csv${ranged}`,
    `${party}/ledger.pdf${ranged}`,
    `${unknown}${ledger}${ranged}`,
  ]) {
    const response = await t.call('GET', url, { token: url.startsWith(party) ? t.other.token : undefined });
    expect(response.statusCode, url).toBe(404);
    expect(response.json().code).toBe(code);
  }
}

/**
 * The accounts list (`list`: '/api/current-accounts/customers') on 15 November, after `ageParty`:
 * the aged party's row holds the aged figures and `expected`, the page lists the aged party then
 * the idle one (`idOf` reads a row's party id), and its totals are the aged party's. Answers both.
 */
export async function expectAgedAccountOnNovember15<Row>(
  t: TestClinicContext,
  list: string,
  idOf: (row: Row) => string,
  parties: { aged: string; idle: string },
  expected: Record<string, unknown>,
) {
  setClock('2026-11-15T15:00:00Z');
  const response = await t.call('GET', `${list}?q=aging&pageSize=50`);
  expect(response.statusCode, response.body).toBe(200);
  const page = response.json<{ data: Row[]; total: number; totals: Record<string, string> }>();
  const account = page.data.find((row) => idOf(row) === parties.aged);
  const figures = { balance: '444.50', overdue: '484.00', onAccount: '160.50' };
  expect(account).toMatchObject({ ...figures, aging: agingOnNovember15, lastMovementOn: '2026-11-20', ...expected });
  expect(page.data.map(idOf)).toEqual([parties.aged, parties.idle]);
  expect(page.total).toBe(2);
  expect(page.totals).toMatchObject(figures);
  return { page, account };
}

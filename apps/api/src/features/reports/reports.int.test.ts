import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { clinicToday } from '@odontia/shared/clinic-time';
import { reportIds } from '@odontia/shared/schemas/reports';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { insertProvider, insertRegisteredPurchase } from '../../../test/commercial.ts';
import {
  appointmentBooker,
  cancelled,
  collectionsWithOneReversed,
  consultation,
  creator,
  novemberSales,
  saleCatalogue,
  treatmentSale,
} from '../../../test/figures-fixture.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { reportExports } from '../../db/schema/index.ts';
import { createDiskStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { type DayFigure, dayFigureRows } from '../figures/day-figures.repository.ts';
import { reportChunk, reportDefinitions, reportPage, reportRows, reportTotals, sumRows } from './reports.repository.ts';
import { sweepReportExports } from './reports.service.ts';

/**
 * Reports (issue 19) on a small known data set, every total computed by hand and checked against
 * the sum of the report's rows; the exports (CSV, XLSX, PDF, a job in chunks) read back.
 */
describe.each(availableBackends())('reports on %s', (backend) => {
  // One row per export chunk: a two-row report takes two runs, so the progress is seen half way;
  // at most two rows answered at once, so a three-row report must be exported as a job.
  const t = useTestClinic(backend, {
    patient: true,
    env: { REPORT_EXPORT_CHUNK_ROWS: '1', REPORT_DIRECT_EXPORT_MAX_ROWS: '2' },
  });
  const period = 'from=2026-11-01&to=2026-11-15';

  const created = creator(t);
  const sale = treatmentSale(t);

  beforeAll(async () => {
    setClock('2026-11-15T15:00:00Z');
    const { limpieza, extraccion } = await saleCatalogue(t);
    // Sales: 100 + 50 net (3 Nov), a credit note of 40 (5 Nov); October and budgets stay out.
    // October first: a point of sale's numbers follow its dates (issue 35).
    await sale('2026-10-20', [{ treatmentId: extraccion, price: '80' }]);
    await novemberSales(sale, { limpieza, extraccion });
    // Collections: 50 cash, 30 card, 20 cash reversed (does not count).
    await collectionsWithOneReversed(t);
    // Purchases: 100 net (2 Nov), 300 net (10 Nov), a credit note of 50 (12 Nov), 999 in October.
    const providerId = await insertProvider(t);
    await insertRegisteredPurchase(t, { providerId, date: '2026-11-02', net: '100' });
    const second = await insertRegisteredPurchase(t, { providerId, date: '2026-11-10', net: '300' });
    await insertRegisteredPurchase(t, {
      providerId,
      date: '2026-11-12',
      net: '50',
      documentType: 'credit_note',
      relatedDocumentId: second.id,
    });
    await insertRegisteredPurchase(t, { providerId, date: '2026-10-30', net: '999' });
    restoreClock();
  });

  const page = async (reportId: string, query = '', dates = period) => {
    const response = await t.call('GET', `/api/reports/${reportId}?${dates}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  /** Each summed column of the rows, summed (money with two places). */
  const summed = (data: {
    columns: { key: string; kind: string; summed: boolean }[];
    rows: Record<string, unknown>[];
  }) =>
    Object.fromEntries(
      data.columns
        .filter((column) => column.summed)
        .map((column) => {
          const cents = data.rows.reduce<number>(
            (total, row) => total + Math.round(Number(row[column.key]) * (column.kind === 'money' ? 100 : 1)),
            0,
          );
          return [column.key, column.kind === 'money' ? (cents / 100).toFixed(2) : cents];
        }),
    );
  /** The report's totals are these, and each is its column summed over the rows. */
  const expectTotals = (data: Parameters<typeof summed>[0] & { totals: unknown }, totals: unknown) => {
    expect(data.totals).toEqual(totals);
    expect(summed(data)).toEqual(data.totals);
  };

  /** A report's first page whose rows and totals are these (see expectTotals); its data. */
  const expectPage = async (reportId: string, rows: unknown[], totals: unknown, query = '', dates = period) => {
    const data = await page(reportId, query, dates);
    expect(data.rows).toEqual(rows);
    expectTotals(data, totals);
    return data;
  };

  it('lists the catalogue, with the integrity report at its own endpoint', async () => {
    const response = await t.call('GET', '/api/reports');
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.map((entry: { id: string }) => entry.id)).toEqual([
      'daily-cash',
      'production-by-treatment',
      'production-by-professional',
      'receivables-aging',
      'payables',
      'sales-vat-book',
      'purchases-vat-book',
      'stock-valuation',
      'stock-movements',
      'appointments-by-professional',
      'new-patients',
      'active-patients',
      'cash-closings',
      'cash-differences',
      'payer-presentations',
      'payer-rejections',
      'payment-plan-instalments',
      'professional-settlements',
      'sales-integrity',
    ]);
    expect(data.at(-1)).toMatchObject({ endpoint: '/api/sales/integrity', formats: [] });
    expect(data[0]).toMatchObject({ filters: ['method'], formats: ['csv', 'xlsx', 'pdf'] });
  });

  it('daily cash: collections by day and method, the reversed one left out; totals over every page', async () => {
    const data = await expectPage(
      'daily-cash',
      [
        { day: '2026-11-06', method: 'cash_payment', count: 1, amount: '50.00' },
        { day: '2026-11-07', method: 'credit_card', count: 1, amount: '30.00' },
      ],
      { count: 2, amount: '80.00' },
    );
    const second = await t.call('GET', `/api/reports/daily-cash?${period}&page=2&pageSize=1`);
    expect(second.json()).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(second.json().data.rows).toEqual([data.rows[1]]);
    expect(second.json().data.totals).toEqual(data.totals);
    expect((await page('daily-cash', '&method=credit_card')).totals).toEqual({ count: 1, amount: '30.00' });
  });

  it('production by treatment: invoiced lines net of VAT, credit notes subtracted', async () => {
    await expectPage(
      'production-by-treatment',
      [
        { code: 'LIMP', treatment: 'Limpieza', count: 0, net: '60.00' },
        { code: 'EXTR', treatment: 'Extracción', count: 1, net: '50.00' },
      ],
      { count: 1, net: '110.00' },
    );
  });

  it('sales VAT book: each issued document by rate, the credit note negative', async () => {
    const data = await page('sales-vat-book');
    expect(data.rows).toHaveLength(2);
    expect(data.rows[0]).toMatchObject({ date: '2026-11-03', documentType: 'invoice', vatRate: '21.00' });
    expect(data.rows[0]).toMatchObject({ net: '150.00', vat: '31.50', total: '181.50' });
    expect(data.rows[1]).toMatchObject({ date: '2026-11-05', documentType: 'credit_note' });
    expect(data.rows[1]).toMatchObject({ net: '-40.00', vat: '-8.40', total: '-48.40' });
    expect(data.rows[0].number).toMatch(/^0001-\d+$/);
    expectTotals(data, { net: '110.00', vat: '23.10', total: '133.10' });
  });

  it('purchases VAT book: registered documents of the period, the credit note negative', async () => {
    const data = await page('purchases-vat-book');
    expect(data.rows.map((row: Record<string, unknown>) => [row.date, row.documentType, row.net, row.vat])).toEqual([
      ['2026-11-02', 'invoice', '100.00', '21.00'],
      ['2026-11-10', 'invoice', '300.00', '63.00'],
      ['2026-11-12', 'credit_note', '-50.00', '-10.50'],
    ]);
    expectTotals(data, { net: '350.00', vat: '73.50', total: '423.50' });
  });

  it('receivables aging and payables: the current accounts figures, equal to their ledgers', async () => {
    // Customer: 181.50 − 48.40 + 96.80 invoiced, 80 collected (the reversed 20 does not count).
    const receivables = await page('receivables-aging');
    expect(receivables.rows).toHaveLength(1);
    expect(receivables.totals.balance).toBe('149.90');
    expect(summed(receivables)).toEqual(receivables.totals);
    const customers = (await t.call('GET', '/api/current-accounts/customers?withBalance=true')).json<{
      totals: { balance: string; onAccount: string; aging: Record<string, string> };
    }>();
    expect(customers.totals).toMatchObject({
      balance: receivables.totals.balance,
      onAccount: receivables.totals.onAccount,
    });
    expect(customers.totals.aging).toEqual({
      current: receivables.totals.current,
      days_0_30: receivables.totals.days0to30,
      days_31_60: receivables.totals.days31to60,
      days_61_90: receivables.totals.days61to90,
      days_over_90: receivables.totals.daysOver90,
    });
    // Provider: 121 + 363 − 60.50 + 1,208.79 registered, nothing paid.
    const payables = await page('payables');
    expect(payables.totals.balance).toBe('1632.29');
    expect(summed(payables)).toEqual(payables.totals);
    const providers = (await t.call('GET', '/api/current-accounts/providers?withBalance=true')).json<{
      totals: { balance: string; onAccount: string };
    }>();
    expect(providers.totals).toMatchObject({ balance: payables.totals.balance, onAccount: payables.totals.onAccount });
  });

  it('stock valuation and the stock movements of the period', async () => {
    const supply = await created('/api/supplies', {
      name: 'Guantes de nitrilo',
      unitMeasurement: 'unit',
      costPrice: '2.50',
      basePrice: '5',
      taxRate: '21',
      minStock: 0,
      reorderStock: 0,
      totalStock: 10,
    });
    const out = await t.call('POST', `/api/supplies/${supply.id}/stock-movements`, {
      body: { direction: 'out', quantity: 3, reason: 'Rotura' },
    });
    expect(out.statusCode, out.body).toBe(201);
    const valuation = await page('stock-valuation');
    expect(valuation.rows).toHaveLength(1);
    expect(valuation.rows[0]).toMatchObject({ kind: 'supply', item: 'Guantes de nitrilo', stock: 7 });
    const unitCost = Number(valuation.rows[0].unitCost);
    expectTotals(valuation, { stock: 7, value: (7 * unitCost).toFixed(2) });
    // The clinic's day, not UTC's: just after midnight UTC it is still yesterday in Buenos Aires.
    const today = await t.db.withTenant(t.clinic.accountId, async (tx) => {
      const { rows } = await tx.execute<{ time_zone: string }>(
        sql`select time_zone from accounts where id = ${t.clinic.accountId}::uuid`,
      );
      return clinicToday(rows[0]?.time_zone as string);
    });
    const movements = await page('stock-movements', '', `from=${today.slice(0, 8)}01&to=${today.slice(0, 4)}-12-31`);
    expect(movements.rows.map((row: Record<string, unknown>) => [row.item, row.quantity, row.stockAfter])).toEqual([
      ['Guantes de nitrilo', 10, 10],
      ['Guantes de nitrilo', -3, 7],
    ]);
    expect(movements.rows[1].reason).toBe('Rotura');
    expect(movements.totals).toEqual({ quantity: 7 });
  });

  it('appointments by professional: kept, cancelled, cancelled late, no-shows; new patients by day', async () => {
    const book = appointmentBooker(t);
    await book('2026-11-10T16:00:00Z');
    await book('2026-11-10T17:00:00Z', { status: 'completed' });
    await book('2026-11-11T17:00:00Z', { status: 'completed' });
    await book('2026-11-12T13:00:00Z', cancelled('no_show', '2026-11-12T13:30:00Z'));
    // Cancelled three days before: not late; two hours before: late.
    await book('2026-11-13T14:00:00Z', cancelled('patient_request', '2026-11-10T14:00:00Z'));
    await book('2026-11-13T15:00:00Z', cancelled('patient_request', '2026-11-13T13:00:00Z'));
    await book('2026-11-14T15:00:00Z', { status: 'rescheduled' });
    // Outside the period.
    await book('2026-11-20T15:00:00Z', { status: 'completed' });
    await expectPage(
      'appointments-by-professional',
      [
        {
          professional: expect.any(String),
          total: 6,
          scheduled: 1,
          completed: 2,
          cancelled: 1,
          lateCancelled: 1,
          noShow: 1,
        },
      ],
      { total: 6, scheduled: 1, completed: 2, cancelled: 1, lateCancelled: 1, noShow: 1 },
    );
    const other = await page('appointments-by-professional', `&professionalId=${newId()}`);
    expect(other.rows).toEqual([]);

    const none = await page('new-patients', '', 'from=2000-01-01&to=2000-12-31');
    expect(none).toMatchObject({ rows: [], totals: { count: 0 } });
    // The clinic's patient was created today: one new patient this year.
    const patients = await page('new-patients', '', 'from=2026-01-01&to=2026-12-31');
    expect(patients.totals.count).toBeGreaterThanOrEqual(1);
    expect(summed(patients)).toEqual(patients.totals);
  });

  it('answers 400 for a bad period or report, never a 500', async () => {
    for (const url of [
      '/api/reports/daily-cash?from=2026-11-15&to=2026-11-01',
      '/api/reports/daily-cash?from=2025-01-01&to=2026-11-01',
      '/api/reports/daily-cash?from=2026-02-30&to=2026-03-01',
      '/api/reports/nope?from=2026-11-01&to=2026-11-02',
      `/api/reports/daily-cash?${period}&page=99999999999`,
      `/api/reports/daily-cash?${period}&format=docx`,
    ]) {
      expect((await t.call('GET', url)).statusCode, url).toBe(400);
    }
  });

  it('exports CSV (BOM, ;), XLSX and PDF at once, each read back', async () => {
    const csv = await t.call('GET', `/api/reports/sales-vat-book?${period}&format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.rawPayload.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('Fecha;Tipo;Número;Razón social;CUIT/NIF;Alícuota %;Neto;IVA;Total');
    expect(lines).toHaveLength(4);
    // One convention for every CSV (issue 35, lib/csv.ts): numbers as a Spanish spreadsheet reads
    // them, days in ISO 8601, codes named.
    expect(lines[1]?.split(';').slice(5)).toEqual(['21,00', '150,00', '31,50', '181,50']);
    expect(lines[1]?.split(';')[0]).toBe('2026-11-03');
    expect(lines[2]?.split(';')[1]).toBe('Nota de crédito');
    expect(lines[3]?.split(';')).toEqual(['Totales', '', '', '', '', '', '110,00', '23,10', '133,10']);

    const xlsx = await t.call('GET', `/api/reports/daily-cash?${period}&format=xlsx`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Día', 'Forma de pago', 'Cantidad', 'Importe']);
    expect(sheet?.getRow(2).getCell(4).value).toBe(50);
    // Days are date cells (a spreadsheet sorts and filters them), shown as Spanish writes them.
    expect(sheet?.getRow(2).getCell(1).value).toEqual(new Date('2026-11-06T00:00:00Z'));
    expect(sheet?.getRow(2).getCell(1).numFmt).toBe('dd/mm/yyyy');
    expect(sheet?.getRow(4).getCell(1).value).toBe('Totales');
    expect(sheet?.getRow(4).getCell(4).value).toBe(80);

    const pdf = await t.call('GET', `/api/reports/sales-vat-book?${period}&format=pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Libro IVA ventas');
    // Amounts in the clinic's currency, as the screen shows them (the CSV and XLSX keep numbers).
    expect(text).toMatch(/\$\s*133,10/);
    expect(text).not.toContain('133.10');
    expect(text).toContain('Nota de crédito');
    // Days as Spanish writes them, the period too.
    expect(text).toContain('3 nov 2026');
    expect(text).not.toContain('2026-11-03');
    expect(text).toContain('Período: 1 nov 2026 — 15 nov 2026');
  });

  it('answers 409 report_export_too_large to a file of more rows than REPORT_DIRECT_EXPORT_MAX_ROWS', async () => {
    const file = await t.call('GET', `/api/reports/purchases-vat-book?${period}&format=csv`);
    expectAnswer(file, 409, { code: 'report_export_too_large', details: { rows: 3, maxRows: 2 } });
  });

  it('runs a large export as a job in chunks with its progress, then downloads it', async () => {
    const queued = await t.call('POST', '/api/reports/purchases-vat-book/exports', {
      body: { from: '2026-11-01', to: '2026-11-15', format: 'xlsx' },
    });
    expect(queued.statusCode, queued.body).toBe(201);
    const { data, code } = queued.json();
    expect(code).toBe('report_export_queued');
    expect(data).toMatchObject({ state: 'queued', progress: 0, reportId: 'purchases-vat-book' });
    const status = async () => (await t.call('GET', `/api/reports/exports/${data.id}`)).json().data;
    expect((await t.call('GET', `/api/reports/exports/${data.id}/file`)).json()).toMatchObject({
      code: 'report_export_not_ready',
      details: { state: 'queued' },
    });

    await t.app.jobs.runDue();
    expect(await status()).toMatchObject({ state: 'running', rowsWritten: 1, totalRows: 3, progress: 33 });
    await t.app.jobs.runDue();
    expect(await status()).toMatchObject({ state: 'running', rowsWritten: 2, progress: 66 });
    for (let round = 0; round < 5 && (await status()).state !== 'done'; round++) await t.app.jobs.runDue();
    expect(await status()).toMatchObject({ state: 'done', rowsWritten: 3, progress: 100 });

    const file = await t.call('GET', `/api/reports/exports/${data.id}/file`);
    expect(file.statusCode, file.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(5);
    expect(sheet?.getRow(4).getCell(7).value).toBe(-50);
    expect(sheet?.getRow(5).getCell(9).value).toBe(423.5);

    // Another clinic's id is not found; its reports hold none of this clinic's data.
    const other = await t.call('GET', `/api/reports/exports/${data.id}`, { token: t.other.token });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('report_export_not_found');
    const otherFile = await t.call('GET', `/api/reports/exports/${data.id}/file`, { token: t.other.token });
    expect(otherFile.statusCode).toBe(404);
    const otherBook = await t.call('GET', `/api/reports/sales-vat-book?${period}`, { token: t.other.token });
    expect(otherBook.json().data).toMatchObject({ rows: [], totals: { net: '0.00', vat: '0.00', total: '0.00' } });
  });

  it("removes a finished export's file after REPORT_EXPORT_KEEP_DAYS: the export says expired, its file 410", async () => {
    const queued = await t.call('POST', '/api/reports/purchases-vat-book/exports', {
      body: { from: '2026-11-01', to: '2026-11-15', format: 'csv' },
    });
    expect(queued.statusCode, queued.body).toBe(201);
    const { id } = queued.json().data;
    for (let round = 0; round < 6; round++) await t.app.jobs.runDue();
    expect((await t.call('GET', `/api/reports/exports/${id}`)).json().data.state).toBe('done');
    const [row] = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.select().from(reportExports).where(eq(reportExports.id, id)),
    );
    const storage = createDiskStorage(path.join(t.testApp.env.DATA_DIR, 'exports'));
    expect(await storage.exists(String(row?.storageKey))).toBe(true);

    // Six days old: kept. Eight: removed (7 days by default).
    const age = (days: number) =>
      t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.execute(
          sql`update report_exports set finished_at = now() - ${`${days} days`}::interval where id = ${id}::uuid`,
        ),
      );
    await age(6);
    expect(await sweepReportExports(t.db, storage, 7)).toBe(0);
    await age(8);
    expect(await sweepReportExports(t.db, storage, 7)).toBe(1);
    expect(await storage.exists(String(row?.storageKey))).toBe(false);
    expect((await t.call('GET', `/api/reports/exports/${id}`)).json().data).toMatchObject({
      state: 'expired',
      byteSize: null,
    });
    const file = await t.call('GET', `/api/reports/exports/${id}/file`);
    expect(file.statusCode).toBe(410);
    expect(file.json()).toMatchObject({ code: 'report_export_expired', details: { keepDays: 7 } });
    expect(await sweepReportExports(t.db, storage, 7)).toBe(0);
  });

  it('answers 403 to a level without reports.read', async () => {
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/reports')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/reports/daily-cash?${period}`)).statusCode).toBe(403);
      const post = await t.call('POST', '/api/reports/daily-cash/exports', {
        body: { from: '2026-11-01', to: '2026-11-15', format: 'csv' },
      });
      expect(post.statusCode).toBe(403);
    });
  });
  // Last: its invoice would change the totals the tests above computed by hand.
  it('production by professional: lines billed from an attendance for its professional, the rest apart', async () => {
    setClock('2026-11-15T15:00:00Z');
    const visit = await created(`/api/patients/${t.patientId}/attendances`, consultation(t));
    await created('/api/sales', {
      documentType: 'invoice',
      patientId: t.patientId,
      pointOfService: '0001',
      date: '2026-11-09',
      currency: 'argentine_peso',
      conditionSale: 'current_account',
      issue: true,
      lines: [{ attendanceId: visit.id, description: 'Consulta', quantity: '1', unitPrice: '40', vatRate: '21' }],
    });
    restoreClock();
    // 150 − 40 sold at the desk (3 and 5 Nov), 40 billed from the attendance (9 Nov).
    const data = await expectPage(
      'production-by-professional',
      [
        { professional: expect.any(String), attendances: 1, net: '40.00' },
        { professional: null, attendances: 0, net: '110.00' },
      ],
      { attendances: 1, net: '150.00' },
    );
    const mine = await page('production-by-professional', `&professionalId=${t.clinic.userId}`);
    expect(mine.totals).toEqual({ attendances: 1, net: '40.00' });

    // Issue 35: the invoice's line took the attendance's professional and keeps it: the attendance
    // changing professional afterwards moves nothing (the issued line says who did it).
    const invited = await t.call('POST', '/api/users', {
      body: { completeName: 'Dra. Colega', email: `colega.${randomUUID()}@clinica.test`, level: 'user' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const colleague = invited.json().data.id as string;
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`update attendances set professional_id = ${colleague}::uuid where id = ${visit.id}::uuid`),
    );
    const kept = await page('production-by-professional');
    expect(kept.rows).toEqual(data.rows);
    const mineStill = await page('production-by-professional', `&professionalId=${t.clinic.userId}`);
    expect(mineStill.totals).toEqual({ attendances: 1, net: '40.00' });
  });

  it('active patients: each patient attended in the period (clinic days), their attendances and the last one', async () => {
    setClock('2026-11-15T15:00:00Z');
    const other = await createTestPatient(t.app, t.clinic.token, { lastName: 'Alonso', firstName: 'Marta' });
    const attend = (patientId: string, date: string) =>
      created(`/api/patients/${patientId}/attendances`, {
        date,
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Control',
      });
    await attend(t.patientId, '2026-10-05T10:00:00-03:00');
    // 22:30 on 31 October in Buenos Aires is already 1 November in UTC: still October's.
    await attend(t.patientId, '2026-10-31T22:30:00-03:00');
    await attend(other, '2026-10-10T09:00:00-03:00');
    // Outside the period (1 November in the clinic) and deleted: not counted.
    await attend(other, '2026-11-01T09:00:00-03:00');
    const deleted = await attend(other, '2026-10-20T09:00:00-03:00');
    const removal = await t.call('DELETE', `/api/patients/${other}/attendances/${deleted.id}`);
    expect(removal.statusCode, removal.body).toBe(200);
    restoreClock();

    const october = 'from=2026-10-01&to=2026-10-31';
    const data = await page('active-patients', '', october);
    expect(data.rows).toEqual([
      { patientCode: expect.any(String), patient: 'Alonso, Marta', attendanceCount: 1, lastAttendance: '2026-10-10' },
      {
        patientCode: expect.any(String),
        patient: expect.stringMatching(/^Fernández \d+, Lucía$/),
        attendanceCount: 2,
        lastAttendance: '2026-10-31',
      },
    ]);
    expect(data).toMatchObject({ currency: 'argentine_peso', totals: { attendanceCount: 3 } });
    expectTotals(data, { attendanceCount: 3 });
    // Paginated: the second page holds the second patient, the totals still the period's.
    const second = await t.call('GET', `/api/reports/active-patients?${october}&page=2&pageSize=1`);
    expect(second.json()).toMatchObject({ total: 2, page: 2, pageSize: 1, data: { totals: { attendanceCount: 3 } } });
    expect(second.json().data.rows).toEqual([data.rows[1]]);
    // November: the attendance billed above (9 Nov) and Marta's of 1 November.
    const november = await page('active-patients', '', 'from=2026-11-01&to=2026-11-30');
    expect(november.rows.map((row: { patient: string }) => row.patient)).toEqual([
      'Alonso, Marta',
      expect.stringMatching(/^Fernández/),
    ]);
    const csv = await t.call('GET', `/api/reports/active-patients?${october}&format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.rawPayload.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('N.º de paciente;Paciente;Atenciones;Última atención');
    expect(lines.at(-1)).toBe('Totales;;3;');
  });
});

/**
 * What makes the reports fast at a big clinic's size must answer what their definitions answer
 * read whole: the kept totals (VAT books, production by professional), the aging's pages from the
 * kept balances, and an export's chunks read by keyset.
 */
describe.each(availableBackends())('reports read fast equal reports read whole, on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  it('pages, totals and keyset chunks of every report, and the kept figures rebuilt from the rows', async () => {
    setClock('2026-11-15T15:00:00Z');
    const call = (url: string, body: Record<string, unknown>, headers = {}) => t.created(url, { body, headers });
    await call('/api/points-of-sale', { code: '0001', name: 'Recepción' });
    await call('/api/points-of-sale', { code: '0002', name: 'Consultorio' });
    const visit = await call(`/api/patients/${t.patientId}/attendances`, consultation(t));
    // Several documents a day on two points of sale, two VAT rates, one without VAT.
    const rates = ['21', '10.5', '0'];
    const issued: string[] = [];
    for (let index = 0; index < 7; index++) {
      const sale = await call('/api/sales', {
        documentType: index === 6 ? 'credit_note' : 'invoice',
        ...(index === 6 ? { relatedDocumentId: issued[0] } : {}),
        patientId: t.patientId,
        pointOfService: index % 2 === 0 ? '0001' : '0002',
        // Days never going back on a point of sale (issue 35): 1, 1, 1, 2, 2, 2, 3.
        date: `2026-11-0${1 + Math.floor(index / 3)}`,
        currency: 'argentine_peso',
        conditionSale: index % 2 === 0 ? 'current_account' : 'cash',
        ...(index % 2 === 0 ? {} : { paymentMethod: 'cash_payment' }),
        issue: true,
        lines: [
          { description: 'Tratamiento', quantity: '1', unitPrice: `${100 + index}`, vatRate: rates[index % 3] },
          { description: 'Material', quantity: '2', unitPrice: '15.25', vatRate: rates[(index + 1) % 3] },
          ...(index === 0
            ? [{ attendanceId: visit.id, description: 'Consulta', quantity: '1', unitPrice: '40', vatRate: '21' }]
            : []),
        ],
      });
      issued.push(sale.id);
    }
    const providerId = await insertProvider(t);
    for (const day of ['2026-11-02', '2026-11-02', '2026-11-04']) {
      await insertRegisteredPurchase(t, { providerId, date: day, net: '75' });
    }
    restoreClock();

    await t.db.withTenant(t.clinic.accountId, async (tx) => {
      const ctx = { tx, accountId: t.clinic.accountId };
      const { rows: zone } = await tx.execute<{ time_zone: string }>(
        sql`select time_zone from accounts where id = ${t.clinic.accountId}::uuid`,
      );
      const asked = { asOf: '2026-11-15', from: '2026-10-01', to: '2026-11-30' };
      // Without the time zone (an export queued before it was carried) and with it.
      for (const [reportId, request] of reportIds.flatMap((id) => [
        [id, asked] as const,
        [id, { ...asked, timeZone: zone[0]?.time_zone as string }] as const,
      ])) {
        const definition = reportDefinitions[reportId];
        const whole = await reportRows(ctx, definition, request, 0, 1000);
        const fromRows = await reportTotals(ctx, definition, request, { fromRows: true });
        const answered = await reportPage(ctx, definition, request, { page: 1, pageSize: 1000 });
        expect(answered.rows, reportId).toEqual(whole);
        expect({ count: answered.count, totals: answered.totals }, reportId).toEqual(fromRows);
        expect(sumRows(definition, whole), reportId).toEqual(fromRows.totals);
        // An export's chunks, one row each: by keyset where the report has one, else by offset.
        const chunked: typeof whole = [];
        let cursor: string[] | null = null;
        for (let round = 0; round <= whole.length; round++) {
          const chunk = await reportChunk(ctx, definition, request, { offset: chunked.length, cursor }, 1);
          if (chunk.rows.length === 0) break;
          chunked.push(...chunk.rows);
          cursor = chunk.cursor;
        }
        expect(chunked, reportId).toEqual(whole);
      }
      expect((await reportRows(ctx, reportDefinitions['sales-vat-book'], asked, 0, 1000)).length).toBeGreaterThan(10);

      // The figures kept by the triggers equal those rebuilt from every row.
      const figures = ['sales_vat_base', 'sales_vat', 'purchases_vat_base', 'purchases_vat', 'production_professional'];
      const kept = await tx.execute(sql`
        select k.figure, k.key, k.day::text, k.amount::numeric(14, 2)::text as amount, k.count::int
        from (${dayFigureRows(ctx, { figures: figures as DayFigure[] })}) k
        where k.amount <> 0 or k.count <> 0 order by 1, 2, 3`);
      const rebuilt = await tx.execute(sql`
        select f.figure, f.key, f.day::text, f.amount::numeric(14, 2)::text as amount, f.count::int
        from odontia_day_figures(${t.clinic.accountId}::uuid) f
        where f.figure in ${figures} and (f.amount <> 0 or f.count <> 0) order by 1, 2, 3`);
      expect(kept.rows.length).toBeGreaterThan(5);
      expect(kept.rows).toEqual(rebuilt.rows);
    });
  });
});

describe('reports of a read-only clinic', () => {
  const plans = [{ id: 'basic', name: 'Básico', price: '29.90', currency: 'euro', periodMonths: 1, limits: {} }];
  const t = useTestClinic('pglite', { env: { PLANS: JSON.stringify(plans), ACCOUNT_GRACE_DAYS: '10' } });

  it('still reads and exports (the exports POST declares allowReadOnly), writes nothing else', async () => {
    await t.db.withSystem((tx) =>
      tx.execute(sql`update accounts set plan = 'basic', renewal_requested_at = null,
        plan_ends_at = ${new Date(Date.now() - 11 * 86_400_000).toISOString()}::timestamptz
        where id = ${t.clinic.accountId}::uuid`),
    );
    const write = await t.call('POST', '/api/points-of-sale', { body: { code: '0009', name: 'Caja' } });
    expect(write.json().code).toBe('account_read_only');
    expect((await t.call('GET', '/api/reports/daily-cash?from=2026-11-01&to=2026-11-15')).statusCode).toBe(200);
    const queued = await t.call('POST', '/api/reports/daily-cash/exports', {
      body: { from: '2026-11-01', to: '2026-11-15', format: 'csv' },
    });
    expect(queued.statusCode, queued.body).toBe(201);
    await t.app.jobs.runDue();
    const file = await t.call('GET', `/api/reports/exports/${queued.json().data.id}/file`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.toString('utf8')).toBe('\uFEFFDía;Forma de pago;Cantidad;Importe\r\nTotales;;0;0,00\r\n');
  });
});

import { randomUUID } from 'node:crypto';
import { clinicToday } from '@odontia/shared/clinic-time';
import { updateClinicSettingsSchema } from '@odontia/shared/schemas/clinic-settings';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { foldDayFigureChanges } from '../src/features/figures/day-figures.repository.ts';
import { insertCustomer, insertIssuedSale } from './sales-factory.ts';
import { expectAnswer, expectRefusedAsClinic, useTestClinic } from './test-clinic.ts';
import { availableBackends } from './test-database.ts';

/**
 * Issue 35: money in the clinic's currency only, sale lines that bill only what is theirs, day
 * figures folded clinic by clinic, and issued sales dated in number order.
 */
describe.each(availableBackends())('money rules on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const peso = 'argentine_peso';

  let pointReady = false;
  async function pointOfSale(code = '0001') {
    if (code === '0001' && pointReady) return;
    const response = await t.call('POST', '/api/points-of-sale', {
      body: { code, name: `Caja ${code}`, active: true },
    });
    expect([201, 409], response.body).toContain(response.statusCode);
    if (code === '0001') pointReady = true;
  }

  const sale = (overrides: Record<string, unknown> = {}) => ({
    documentType: 'invoice',
    patientId: t.patientId,
    pointOfService: '0001',
    date: '2026-03-10',
    currency: peso,
    lines: [{ description: 'Limpieza dental', quantity: '1', unitPrice: '100', vatRate: '21' }],
    ...overrides,
  });

  /** A collection or a payment (`party`: its customerId or providerId) paid in cash on 2026-03-12. */
  const paidInCash = (party: Record<string, string>, amount: string, currency: string) => ({
    headers: { 'idempotency-key': randomUUID() },
    body: { ...party, date: '2026-03-12', amount, currency, method: 'cash_payment', status: 'paid' },
  });

  async function draft(body: object) {
    return t.created<{ id: string; version: number; customerId: string }>('/api/sales', { body });
  }

  describe("the clinic's currency", () => {
    it('refuses a sale, a purchase, a payment and a collection in another currency with currency_not_clinic', async () => {
      await pointOfSale();
      const dollars = await t.call('POST', '/api/sales', { body: sale({ currency: 'us_dollar', issue: true }) });
      expectAnswer(dollars, 409, { code: 'currency_not_clinic', details: { clinicCurrency: peso } });

      const invoice = await draft(sale({ date: '2026-03-11' }));
      const euros = await t.call(
        'POST',
        '/api/collections',
        paidInCash({ customerId: invoice.customerId }, '121', 'euro'),
      );
      expect(euros.statusCode, euros.body).toBe(409);
      expect(euros.json().code).toBe('currency_not_clinic');

      const provider = await t.call('POST', '/api/providers', {
        body: { fantasyName: `Dental Sur ${randomUUID().slice(0, 6)}`, currency: peso, paymentTermDays: 30 },
      });
      expect(provider.statusCode, provider.body).toBe(201);
      const providerId = provider.json().data.id as string;
      const purchase = await t.call('POST', '/api/purchases', {
        body: {
          documentType: 'invoice',
          providerId,
          pointOfService: '0002',
          documentNumber: '77',
          date: '2026-03-10',
          currency: 'euro',
          lines: [{ description: 'Guantes', quantity: '1', unitPrice: '10', vatRate: '21' }],
        },
      });
      expect(purchase.statusCode, purchase.body).toBe(409);
      expect(purchase.json().code).toBe('currency_not_clinic');
      const payment = await t.call('POST', '/api/payments', paidInCash({ providerId }, '10', 'us_dollar'));
      expect(payment.statusCode, payment.body).toBe(409);
      expect(payment.json().code).toBe('currency_not_clinic');
    });

    it('the database refuses a document or a payment in another currency, whatever writes it', async () => {
      const customerId = await insertCustomer(t, { name: 'Moneda Ajena' });
      await expect(insertIssuedSale(t, { customerId, currency: 'us_dollar' })).rejects.toThrow();
      await expectRefusedAsClinic(
        t,
        sql`
            insert into payments (account_id, id, side, number, customer_id, date, amount, currency, method, parts, status, created_by, updated_by)
            values (${t.clinic.accountId}::uuid, ${randomUUID()}::uuid, 'customer', 'RC-X1', ${customerId}::uuid,
                    '2026-03-01', 10, 'euro', 'cash_payment', '[{"method": "cash_payment", "amount": "10.00"}]'::jsonb,
                    'paid', ${t.clinic.userId}::uuid, ${t.clinic.userId}::uuid)`,
      );
    });

    it("refuses to change the clinic's currency once it has documents; a clinic without any may", async () => {
      const customerId = await insertCustomer(t, { name: 'Cambio de Moneda' });
      await insertIssuedSale(t, { customerId, date: '2026-02-01' });
      const settings = (await t.call('GET', '/api/settings/clinic')).json().data;
      const change = await t.call('PUT', '/api/settings/clinic', {
        body: { ...pick(settings), currency: 'euro', version: settings.version },
      });
      expect(change.statusCode, change.body).toBe(409);
      expect(change.json().code).toBe('currency_in_use');

      const empty = await t.newClinic();
      const fresh = (await t.call('GET', '/api/settings/clinic', { token: empty.token })).json().data;
      const allowed = await t.call('PUT', '/api/settings/clinic', {
        token: empty.token,
        body: { ...pick(fresh), currency: 'euro', version: fresh.version },
      });
      expect(allowed.statusCode, allowed.body).toBe(200);
    });
  });

  describe("a sale line's sources", () => {
    async function acceptedBudget(patientId: string) {
      await pointOfSale();
      const budget = await draft(sale({ documentType: 'budget', patientId, date: '2026-01-05' }));
      const issued = await t.call('POST', `/api/sales/${budget.id}/issue`, { body: { version: budget.version } });
      expect(issued.statusCode, issued.body).toBe(200);
      const accepted = await t.call('POST', `/api/sales/${budget.id}/decision`, {
        body: { decision: 'accepted', decidedOn: '2026-01-06' },
      });
      expect(accepted.statusCode, accepted.body).toBe(201);
      const lines = (await t.call('GET', `/api/sales/${budget.id}`)).json().data.lines as { id: string }[];
      return { id: budget.id, lineId: lines[0]?.id as string };
    }

    it("refuses another patient's budget line, an unknown or another clinic's id; the real invoice still converts", async () => {
      const owner = await t.newPatient();
      const budget = await acceptedBudget(owner);
      const line = (sourceLineId: string) => [
        { description: 'Limpieza dental', quantity: '1', unitPrice: '100', vatRate: '21', sourceLineId },
      ];
      for (const sourceLineId of [budget.lineId, randomUUID()]) {
        const stolen = await t.call('POST', '/api/sales', { body: sale({ lines: line(sourceLineId) }) });
        expectAnswer(stolen, 404, { code: 'budget_line_not_found', details: { sourceLineId } });
      }
      const converted = await t.call('POST', `/api/sales/${budget.id}/convert`, { body: { documentType: 'invoice' } });
      expect(converted.statusCode, converted.body).toBe(201);

      // The database says the same to a writer that skips the service.
      const customerId = await insertCustomer(t, { name: 'Ladrón de Líneas' });
      const stranger = await draft(sale({ patientId: null, customerId }));
      await expectRefusedAsClinic(
        t,
        sql`
            insert into document_lines (account_id, id, document_id, position, source_line_id, description, quantity,
              unit_price, vat_rate, subtotal1, discount, subtotal, vat, total)
            values (${t.clinic.accountId}::uuid, ${randomUUID()}::uuid, ${stranger.id}::uuid, 9, ${budget.lineId}::uuid,
              'Robada', 1, 100, 21, 100, 0, 100, 21, 121)`,
      );
    });

    it('refuses a budget line already invoiced (409 already_invoiced)', async () => {
      const owner = await t.newPatient();
      const budget = await acceptedBudget(owner);
      const converted = await t.call('POST', `/api/sales/${budget.id}/convert`, { body: { documentType: 'invoice' } });
      expect(converted.statusCode, converted.body).toBe(201);
      const invoice = (await t.call('GET', `/api/sales/${converted.json().data.id}`)).json().data;
      const issued = await t.call('POST', `/api/sales/${invoice.id}/issue`, { body: { version: invoice.version } });
      expect(issued.statusCode, issued.body).toBe(200);
      const again = await t.call('POST', '/api/sales', {
        body: sale({
          patientId: owner,
          lines: [
            { description: 'Otra vez', quantity: '1', unitPrice: '1', vatRate: '0', sourceLineId: budget.lineId },
          ],
        }),
      });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json().code).toBe('already_invoiced');
    });

    it("answers 404 attendance_not_found for an unknown or another clinic's attendance, never a 500", async () => {
      const other = await t.call('POST', `/api/patients/${await t.newPatient(t.other.token)}/attendances`, {
        token: t.other.token,
        body: {
          date: '2026-03-10T10:30:00-03:00',
          attendanceType: 'dentistry',
          professionalId: t.other.userId,
          titleResume: 'Control',
          billable: true,
        },
      });
      expect(other.statusCode, other.body).toBe(201);
      for (const attendanceId of [randomUUID(), other.json().data.id as string]) {
        const response = await t.call('POST', '/api/sales', {
          body: sale({
            lines: [{ description: 'Consulta', quantity: '1', unitPrice: '100', vatRate: '21', attendanceId }],
          }),
        });
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json().code).toBe('attendance_not_found');
      }
    });
  });

  describe('issued sales in date order', () => {
    it('refuses to issue a document dated before the last issued on its series; the draft keeps its date', async () => {
      await pointOfSale('0007');
      const late = await t.call('POST', '/api/sales', {
        body: sale({ pointOfService: '0007', date: '2026-11-28', issue: true }),
      });
      expect(late.statusCode, late.body).toBe(201);
      const early = await draft(sale({ pointOfService: '0007', date: '2026-10-01' }));
      const refused = await t.call('POST', `/api/sales/${early.id}/issue`, { body: { version: early.version } });
      expectAnswer(refused, 409, {
        code: 'sale_date_before_last',
        details: { lastDate: '2026-11-28', date: '2026-10-01', pointOfService: '0007' },
      });
      const kept = (await t.call('GET', `/api/sales/${early.id}`)).json().data;
      expect(kept).toMatchObject({ status: 'draft', date: '2026-10-01', number: null });
      // The same day, or another type of the point of sale, may go on.
      const sameDay = await t.call('PUT', `/api/sales/${early.id}`, {
        body: { ...sale({ pointOfService: '0007', date: '2026-11-28' }), version: kept.version, issue: true },
      });
      expect(sameDay.statusCode, sameDay.body).toBe(200);
      expect(sameDay.json().data.number).toMatch(/^0007-0+2$/);
      const receipt = await t.call('POST', '/api/sales', {
        body: sale({ pointOfService: '0007', documentType: 'receipt', date: '2026-10-01', issue: true }),
      });
      expect(receipt.statusCode, receipt.body).toBe(201);
    });

    it('twenty concurrent issues: contiguous numbers, dates never decreasing by number', async () => {
      await pointOfSale('0008');
      const dates = Array.from(
        { length: 20 },
        (_, index) => `2026-06-${String(1 + ((index * 7) % 28)).padStart(2, '0')}`,
      );
      const drafts = [];
      for (const date of dates) drafts.push(await draft(sale({ pointOfService: '0008', date })));
      const answers = await Promise.all(
        drafts.map((one) => t.call('POST', `/api/sales/${one.id}/issue`, { body: { version: one.version } })),
      );
      for (const answer of answers) {
        expect([200, 409], answer.body).toContain(answer.statusCode);
        if (answer.statusCode === 409) expect(answer.json().code).toBe('sale_date_before_last');
      }
      const issued = answers
        .filter((answer) => answer.statusCode === 200)
        .map((answer) => answer.json().data as { sequenceNumber: number; date: string })
        .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
      expect(issued.length).toBeGreaterThan(0);
      expect(issued.map((one) => one.sequenceNumber)).toEqual(issued.map((_, index) => index + 1));
      for (let index = 1; index < issued.length; index += 1)
        expect((issued[index]?.date ?? '') >= (issued[index - 1]?.date ?? '')).toBe(true);
    });

    it('the integrity report finds a document dated before an earlier number', async () => {
      await pointOfSale();
      const customerId = await insertCustomer(t, { name: 'Fechas Cruzadas' });
      // Written around the service (as a restored backup could): number n+1 dated before number n.
      await insertIssuedSale(t, { customerId, date: '2026-11-28' });
      const early = await insertIssuedSale(t, { customerId, date: '2026-10-01' });
      const report = (await t.call('GET', '/api/sales/integrity?pointOfService=0001')).json().data;
      expect(report.ok).toBe(false);
      const problems = report.pointsOfSale.flatMap(
        (point: { problems: { kind: string; documentId: string }[] }) => point.problems,
      );
      expect(problems).toContainEqual(expect.objectContaining({ kind: 'date_out_of_order', documentId: early.id }));
    });
  });

  describe('day figures fold clinic by clinic', () => {
    it("one clinic's failing fold is logged and retried later; the other clinics' figures fold", async () => {
      const broken = t.other.accountId;
      // A kept count at the integer's edge and one more change of the same figure: that fold cannot be written.
      await t.db.withSystem((tx) =>
        tx.execute(sql`
          insert into day_figures (account_id, figure, key, day, amount, count)
          values (${broken}::uuid, 'patients_new', 'all', '2026-01-01', 0, 2147483647)`),
      );
      await t.db.withSystem((tx) =>
        tx.execute(sql`
          insert into day_figure_changes (account_id, figure, key, day, amount, count)
          values (${broken}::uuid, 'patients_new', 'all', '2026-01-01', 0, 1)`),
      );
      const customerId = await insertCustomer(t, { name: 'Plegado Sano' });
      await insertIssuedSale(t, { customerId, date: '2026-04-01' });
      const pending = async (accountId: string) =>
        Number(
          (
            await t.db.withSystem((tx) =>
              tx.execute<{ n: number }>(
                sql`select count(*)::int as n from day_figure_changes where account_id = ${accountId}::uuid`,
              ),
            )
          ).rows[0]?.n,
        );
      expect(await pending(t.clinic.accountId)).toBeGreaterThan(0);
      const brokenPending = await pending(broken);
      const logged: object[] = [];
      await foldDayFigureChanges(t.db, { error: (object) => logged.push(object) });
      expect(await pending(t.clinic.accountId)).toBe(0);
      expect(await pending(broken)).toBe(brokenPending);
      expect(logged).toEqual([expect.objectContaining({ accountId: broken, failures: 1 })]);
      const { rows } = await t.db.withSystem((tx) =>
        tx.execute<{ failures: number; waits: boolean }>(
          sql`select failures, retry_at > now() as waits from day_figure_folds where account_id = ${broken}::uuid`,
        ),
      );
      expect(rows[0]).toMatchObject({ failures: 1, waits: true });
      // Backing off: the next turn does not try it again before its time.
      await foldDayFigureChanges(t.db, { error: (object) => logged.push(object) });
      expect(logged).toHaveLength(1);
      // Fixed and due again: it folds and its failure row goes.
      await t.db.withSystem(async (tx) => {
        await tx.execute(
          sql`update day_figures set count = 0 where account_id = ${broken}::uuid and figure = 'patients_new' and day = '2026-01-01'`,
        );
        await tx.execute(sql`update day_figure_folds set retry_at = now() where account_id = ${broken}::uuid`);
      });
      await foldDayFigureChanges(t.db);
      expect(await pending(broken)).toBe(0);
      const left = await t.db.withSystem((tx) =>
        tx.execute(sql`select 1 from day_figure_folds where account_id = ${broken}::uuid`),
      );
      expect(left.rows).toHaveLength(0);
    });

    it('a day of two maximal invoices still folds (day figures hold more than one document can)', async () => {
      await pointOfSale();
      // The clinic's today: the tests above issue on this series today, and a date before the last
      // issued is refused (a fixed date turns into the past).
      const me = await t.call('GET', '/api/auth/system/me');
      const today = clinicToday(me.json().data.account.timeZone);
      const big = [{ description: 'Rehabilitación', quantity: '1', unitPrice: '826446280991.73', vatRate: '21' }];
      for (const patient of [await t.newPatient(), await t.newPatient()]) {
        const response = await t.call('POST', '/api/sales', {
          body: sale({ patientId: patient, date: today, lines: big, issue: true }),
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      const logged: object[] = [];
      await foldDayFigureChanges(t.db, { error: (object) => logged.push(object) });
      expect(logged.filter((entry) => (entry as { accountId?: string }).accountId === t.clinic.accountId)).toEqual([]);
      const { rows } = await t.db.withSystem((tx) =>
        tx.execute<{ amount: string }>(sql`
          select sum(amount)::text as amount from day_figures
          where account_id = ${t.clinic.accountId}::uuid and figure = 'sold' and day = ${today}::date`),
      );
      expect(Number(rows[0]?.amount)).toBeGreaterThan(1_999_999_999_999);
    });
  });
});

/** The settings' editable fields as the PUT takes them: those of its schema but the version. */
const editableSettings = Object.keys(updateClinicSettingsSchema.shape).filter((key) => key !== 'version');
function pick(settings: Record<string, unknown>) {
  return Object.fromEntries(editableSettings.map((key) => [key, settings[key]]));
}

import { clinicDayRange } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';
import { stockLedgerMismatches } from '../../test/supplies.ts';
import { demoDay, demoTimeZone } from './demo-time.ts';

describe('demo clinic medical histories', () => {
  const { get, db } = useDemoClinic();

  it('has diagnoses, laboratory orders and attendances whose supplies left stock through the ledger', async () => {
    const patients = (await get('/api/patients?sort=skuPatient&pageSize=4')).json().data as { id: string }[];
    const first = patients[0]?.id;
    const attendances = (await get(`/api/patients/${first}/attendances`)).json();
    // Two of the clinical history, and the finished cleaning that left the patient a recall (issue 38);
    // besides them, those of the demo agenda's past days, which depend on the weekday it is seeded on.
    const { rows: fromAgenda } = await db().orm.execute<{ count: number }>(
      sql`select count(*)::int as count from appointments where patient_id = ${first} and attendance_id is not null`,
    );
    expect(attendances.total - (fromAgenda[0]?.count ?? 0)).toBe(3);
    const filling = attendances.data.find((row: { titleResume: string }) => row.titleResume === 'Obturación pieza 36');
    expect(filling).toMatchObject({ titleResume: 'Obturación pieza 36', totalBillable: '53000.00' });
    const detail = (await get(`/api/patients/${first}/attendances/${filling.id}`)).json().data;
    expect(detail.supplies).toHaveLength(3);
    expect(detail.medications[0].name).toMatch(/^Lidocaína/);
    expect((await get(`/api/patients/${first}/diagnoses`)).json().data[0]).toMatchObject({
      icd10Code: 'K02.1',
      teeth: [36],
    });
    const second = patients[1]?.id;
    const laboratories = (await get(`/api/patients/${second}/laboratories`)).json().data;
    expect(laboratories[0]).toMatchObject({ status: 'result_received' });
    const pdf = await get(`/api/patients/${second}/laboratories/${laboratories[0].id}/order.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await stockLedgerMismatches(db())).toEqual([]);
    const { rows: consumed } = await db().orm.execute(
      sql`select 1 from stock_movements where reference_type = 'attendance'`,
    );
    expect(consumed.length).toBeGreaterThanOrEqual(10);
  });

  it('has health certificates: an attendance one, and a rest one voided and issued again', async () => {
    const patients = (await get('/api/patients?sort=skuPatient&pageSize=2')).json().data as { id: string }[];
    const first = (await get(`/api/patients/${patients[0]?.id}/certificates`)).json().data;
    expect(first).toMatchObject([{ kind: 'attendance', voidedAt: null }]);
    expect(first[0].text).toContain('Banco Ciudad');
    const second = (await get(`/api/patients/${patients[1]?.id}/certificates`)).json().data;
    expect(second).toHaveLength(2);
    const voided = second.find((row: { voidedAt: string | null }) => row.voidedAt);
    expect(second.find((row: { replacesId: string | null }) => row.replacesId)?.replacesId).toBe(voided.id);
    expect((await get(`/api/certificates/by-code/${first[0].verificationCode}`)).statusCode).toBe(200);
  });

  it('has four providers in pesos with valid CUITs, searchable by name and tax id, and the two settled professionals', async () => {
    const providers = (await get('/api/providers?pageSize=100')).json();
    // Issue 40: a professional's settlement is a payable of their own provider record.
    expect(providers.data.map((row: { fantasyName: string }) => row.fantasyName)).toEqual([
      'Depósito Dental Rivadavia',
      'Implantes Austral',
      'Laboratorio Andino',
      'Laboratorio Dental Sur',
      'Laura Gómez',
      'Martín Sosa',
    ]);
    expect(providers.data[0]).toMatchObject({ nif: '30708945125', taxIdKind: 'cuit', currency: 'argentine_peso' });
    expect((await get('/api/providers?q=30-65432198-8')).json().data[0].fantasyName).toBe('Laboratorio Andino');
    expect((await get('/api/providers?q=anestesicos')).json().data).toEqual([]);
    expect((await get('/api/providers?q=implant')).json().total).toBe(1);
    const csv = await get('/api/providers/export.csv');
    // The header and six providers (issue 41 added the dental lab).
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(7);
  });

  it('has its fiscal data, a point of sale and a few months of purchases and payments that add up', async () => {
    const fiscal = (await get('/api/settings/fiscal')).json().data;
    expect(fiscal).toMatchObject({ legalName: 'Clínica Dental Sonrisa S.R.L.', taxId: '30712345671', country: 'AR' });
    expect(fiscal.logoSha256).toEqual(expect.any(String));
    const purchases = (await get('/api/purchases?pageSize=100')).json();
    const types = purchases.data.map((row: { documentType: string }) => row.documentType);
    expect(types).toEqual(expect.arrayContaining(['delivery_note', 'invoice', 'credit_note', 'purchase_order']));
    expect(purchases.data.every((row: { status: string }) => row.status === 'registered')).toBe(true);
    // Issue 35: the clinic's purchase order, numbered by it and received in part.
    const order = purchases.data.find((row: { documentType: string }) => row.documentType === 'purchase_order');
    expect(`${order.pointOfService}-${order.documentNumber}`).toBe('OC-00000001');
    const reception = (await get(`/api/purchases/${order.id}`)).json().data.order;
    expect(reception.status).toBe('partially_received');
    expect(reception.lines.map((line: { pending: string }) => line.pending)).toEqual(['1.00', '1.00']);
    const payments = (await get('/api/payments?pageSize=100')).json().data as {
      status: string;
      reversedAt: string | null;
    }[];
    expect(payments.some((payment) => payment.reversedAt)).toBe(true);
    expect(payments.some((payment) => payment.status === 'pending')).toBe(true);
    const accounts = (await get('/api/current-accounts/providers')).json();
    // Every provider's account, the dental lab's (issue 41, nothing bought yet) too.
    expect(accounts.data).toHaveLength(6);
    for (const account of accounts.data as { balance: string; onAccount: string; aging: Record<string, string> }[]) {
      const aged = Object.values(account.aging).reduce((total, value) => total + Number(value), 0);
      expect(Number(account.balance)).toBeCloseTo(aged - Number(account.onAccount), 2);
    }
    expect(Number(accounts.totals.overdue)).toBeGreaterThan(0);
    expect(Number(accounts.totals.onAccount)).toBeGreaterThan(0);
    const { rows } = await db().orm.execute<{ n: number }>(sql`
      select count(*)::int as n from party_balances b
      where b.party_kind = 'provider' and (b.credits - b.debits) <> (
        (select coalesce(sum(open_amount), 0) from commercial_documents d
          where d.account_id = b.account_id and d.provider_id = b.party_id and d.deleted_at is null)
        - (select coalesce(sum(amount - allocated_amount), 0) from payments p
          where p.account_id = b.account_id and p.provider_id = b.party_id and p.reversed_at is null))`);
    expect(rows[0]?.n).toBe(0);
  });

  it('has a price list in pesos and months of invoices, collections, budgets and a credit note that add up', async () => {
    const { rows: counts } = await db().orm.execute<Record<string, number>>(sql`
      select
        (select count(*)::int from treatments where price > 0) as priced,
        (select count(*)::int from commercial_documents where side = 'sale' and document_type = 'invoice' and status = 'issued') as invoices,
        (select count(*)::int from commercial_documents where side = 'sale' and document_type = 'budget') as budgets,
        (select count(*)::int from commercial_documents where side = 'sale' and document_type = 'credit_note') as credit_notes,
        (select count(*)::int from budget_decisions) as decisions,
        (select count(*)::int from payments where side = 'customer') as collections,
        (select count(*)::int from commercial_documents where side = 'sale' and open_amount > 0) as open,
        (select count(*)::int from customers where kind = 'insurer') as insurers`);
    // Issue 40: the obra social is a customer too (insurer), and its rejected line a credit note to it.
    // Issue 41: the accepted treatment plan's budget, and its answer.
    expect(counts[0]).toMatchObject({ budgets: 4, credit_notes: 2, decisions: 3, insurers: 2 });
    expect(counts[0]?.priced).toBeGreaterThanOrEqual(20);
    expect(counts[0]?.invoices).toBeGreaterThanOrEqual(15);
    expect(counts[0]?.collections).toBeGreaterThanOrEqual(8);
    expect(counts[0]?.open).toBeGreaterThan(0);
    // Balance = Σ ledger = Σ open amounts − Σ unallocated collections, for every customer.
    const { rows } = await db().orm.execute<{ n: number }>(sql`
      select count(*)::int as n from customers c
      left join party_balances b on b.account_id = c.account_id and b.party_kind = 'customer' and b.party_id = c.id
      where coalesce(b.debits - b.credits, 0) <> coalesce((select sum(e.debit - e.credit) from ledger_entries e
          where e.account_id = c.account_id and e.party_kind = 'customer' and e.party_id = c.id), 0)
        or coalesce(b.debits - b.credits, 0) <> (
          (select coalesce(sum(open_amount), 0) from commercial_documents d
            where d.account_id = c.account_id and d.customer_id = c.id and d.status <> 'draft' and d.deleted_at is null)
          - (select coalesce(sum(amount - allocated_amount), 0) from payments p
            where p.account_id = c.account_id and p.customer_id = c.id and p.reversed_at is null))`);
    expect(rows[0]?.n).toBe(0);
  });

  // Issue 40: a patient's implant on a 6-instalment monthly plan, two paid, the third overdue.
  it('has a payment plan: six monthly instalments, two paid, one overdue, three to come', async () => {
    const plans = (await get('/api/payment-plans?status=active')).json().data;
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ instalmentCount: 6, total: '720000.00', paid: '240000.00', overdueCount: 1 });
    expect(plans[0].instalments.map((i: { state: string }) => i.state)).toEqual([
      'paid',
      'paid',
      'overdue',
      'pending',
      'pending',
      'pending',
    ]);
    const overdue = (await get('/api/payment-plans/instalments?view=overdue')).json();
    expect(overdue.data).toMatchObject([{ number: 3, instalmentCount: 6, amount: '120000.00' }]);
  });

  it('has treatment plans in progress: one accepted with sessions done, booked and pending, one presented with two alternatives', async () => {
    const patients = (await get('/api/patients?sort=skuPatient&pageSize=3')).json().data as { id: string }[];
    const [, second, third] = patients;
    const plans = (await get(`/api/patients/${second?.id}/treatment-plans`)).json();
    expect(plans.data).toHaveLength(1);
    expect(plans.data[0]).toMatchObject({
      status: 'accepted',
      progress: {
        items: { done: 2, scheduled: 1, pending: 2, total: 5 },
        sessions: { done: 2, scheduled: 1, pending: 3 },
      },
    });
    const plan = (await get(`/api/patients/${second?.id}/treatment-plans/${plans.data[0].id}`)).json().data;
    expect(plan.budgetNumber).toMatch(/^0001-/);
    // Carrying out the extraction charted it on the odontogram.
    const chart = (await get(`/api/patients/${second?.id}/odontogram`)).json().data;
    expect(chart.teeth.find((tooth: { tooth: number }) => tooth.tooth === 48).piece.status).toBe('extracted');
    const options = (await get(`/api/patients/${third?.id}/treatment-plans`)).json().data;
    expect(options[0]).toMatchObject({ status: 'presented' });
    expect(options[0].alternatives).toHaveLength(2);
    const followUp = (await get('/api/treatment-plans/follow-up')).json();
    expect(followUp.data).toMatchObject([{ patientId: second?.id, scheduledSessions: 1, pendingSessions: 3 }]);
  });
});

describe('demo clinic dental lab cases (issue 41)', () => {
  const { get } = useDemoClinic();

  it('has a case in every state, one overdue, and tomorrow a seating appointment the agenda warns about', async () => {
    const open = (await get('/api/lab-cases?pageSize=100')).json().data as {
      status: string;
      overdue: boolean;
      atRisk: boolean;
      seatingWarning: boolean;
      appointmentId: string | null;
      providerName: string;
    }[];
    expect(new Set(open.map((row) => row.status))).toEqual(
      new Set(['draft', 'sent', 'received', 'checked', 'returned']),
    );
    expect(open.every((row) => row.providerName === 'Laboratorio Dental Sur')).toBe(true);
    expect(open.filter((row) => row.overdue)).toHaveLength(1);
    const warned = open.filter((row) => row.seatingWarning);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ status: 'sent', atRisk: true });
    expect((await get('/api/lab-cases?status=seated')).json().total).toBe(1);
    // The crown of the second patient's accepted plan has its case, named after the plan's item.
    const planned = open.filter((row) => (row as { treatmentPlanItemLabel?: string | null }).treatmentPlanItemLabel);
    expect(planned).toEqual([
      expect.objectContaining({ status: 'draft', treatmentPlanItemLabel: expect.stringMatching(/· 46$/) }),
    ]);
    const tomorrow = clinicDayRange(demoTimeZone, demoDay(-1));
    const calendar = (
      await get(`/api/appointments/calendar?from=${tomorrow.start.toISOString()}&to=${tomorrow.end.toISOString()}`)
    ).json().data as { id: string; labCaseWarning: boolean }[];
    expect(calendar.filter((row) => row.labCaseWarning).map((row) => row.id)).toEqual([warned[0]?.appointmentId]);
  });
});

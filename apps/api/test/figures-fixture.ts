import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { appointments } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import type { TestClinicContext } from './test-clinic.ts';

/*
 * The sales and collections the dashboard and the reports tests (issue 19) build through the API
 * on the test patient, their figures computed by hand in each test.
 */

/** POSTs through the API and answers the created record's data (201 expected). */
export const creator =
  (t: TestClinicContext) =>
  async (url: string, body: Record<string, unknown>, headers = {}) => {
    return t.created(url, { body, headers });
  };

/** A billable consultation (fee 40) on 9 November 2026 by the clinic's professional, as the attendances' POST takes it. */
export const consultation = (t: TestClinicContext) => ({
  date: '2026-11-09T10:30:00-03:00',
  attendanceType: 'dentistry',
  professionalId: t.clinic.userId,
  titleResume: 'Consulta',
  billable: true,
  attendanceFee: '40',
});

/** Point of sale 0001 and two treatments of 100 + 21 % VAT, answering the treatments' ids. */
export async function saleCatalogue(t: TestClinicContext) {
  const created = creator(t);
  await created('/api/points-of-sale', { code: '0001', name: 'Recepción' });
  const treatment = (code: string, name: string) =>
    created('/api/treatments', { code, name, price: '100', vatRate: '21', durationMinutes: 30 });
  return { limpieza: (await treatment('LIMP', 'Limpieza')).id, extraccion: (await treatment('EXTR', 'Extracción')).id };
}

/** An issued invoice (or `more.documentType`) to the test patient at 0001, one line per treatment, VAT 21 %. */
export const treatmentSale =
  (t: TestClinicContext) =>
  (date: string, lines: { treatmentId: string; price: string }[], more = {}) =>
    creator(t)('/api/sales', {
      documentType: 'invoice',
      patientId: t.patientId,
      pointOfService: '0001',
      date,
      currency: 'argentine_peso',
      conditionSale: 'current_account',
      issue: true,
      lines: lines.map((line) => ({
        treatmentId: line.treatmentId,
        description: 'Tratamiento',
        quantity: '1',
        unitPrice: line.price,
        vatRate: '21',
      })),
      ...more,
    });

/** Collections from the test patient: 50 cash (6 Nov), 30 card (7 Nov), 20 cash (8 Nov) reversed, which does not count. */
export async function collectionsWithOneReversed(t: TestClinicContext) {
  const collect = (date: string, amount: string, method: string) =>
    creator(t)(
      '/api/collections',
      { patientId: t.patientId, date, amount, currency: 'argentine_peso', method },
      { 'idempotency-key': `test-${randomUUID()}` },
    );
  await collect('2026-11-06', '50.00', 'cash_payment');
  await collect('2026-11-07', '30.00', 'credit_card');
  const reversed = await collect('2026-11-08', '20.00', 'cash_payment');
  const reversal = await t.call('POST', `/api/collections/${reversed.id}/reverse`, {
    body: { reason: 'Duplicado', version: reversed.version },
  });
  expect(reversal.statusCode, reversal.body).toBe(200);
}

/** November's sales: 100 + 50 net (3 Nov), a credit note of 40 on it (5 Nov) and a budget of 999 (4 Nov) that stays out. */
export async function novemberSales(
  sale: ReturnType<typeof treatmentSale>,
  { limpieza, extraccion }: { limpieza: string; extraccion: string },
) {
  const first = await sale('2026-11-03', [
    { treatmentId: limpieza, price: '100' },
    { treatmentId: extraccion, price: '50' },
  ]);
  await sale('2026-11-05', [{ treatmentId: limpieza, price: '40' }], {
    documentType: 'credit_note',
    relatedDocumentId: first.id,
  });
  await sale('2026-11-04', [{ treatmentId: limpieza, price: '999' }], { documentType: 'budget' });
}

/** A dentistry control attended by the clinic's user (its date apart). */
export const controlAttendanceBody = (t: TestClinicContext) => ({
  attendanceType: 'dentistry',
  specialization: 'Odontología general',
  professionalId: t.clinic.userId,
  titleResume: 'Control',
  resume: 'Control',
  detail: 'Control',
  billable: false,
});

/** Records that control for `patientId` on `date` through the API, answering the attendance. */
export const controlAttendance = (t: TestClinicContext) => (patientId: string, date: string) =>
  creator(t)(`/api/patients/${patientId}/attendances`, { ...controlAttendanceBody(t), date });

/** What `appointmentBooker` books for an appointment cancelled for `reason` at the instant `at`. */
export const cancelled = (reason: 'no_show' | 'patient_request', at: string) => ({
  status: 'cancelled',
  cancelReason: reason,
  cancelledAt: new Date(at),
});

/**
 * Books a 30-minute appointment of `patientId` with the clinic's user straight in the table (any
 * status, cancellation or arrival in `more`, in the past too), in Buenos Aires. Answers its id.
 */
export const appointmentBooker =
  (t: TestClinicContext, patientId = t.patientId) =>
  async (startsAt: string, more: Record<string, unknown> = {}) => {
    const id = newId();
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.insert(appointments).values({
        accountId: t.clinic.accountId,
        id,
        patientId,
        professionalId: t.clinic.userId,
        startsAt: new Date(startsAt),
        endsAt: new Date(new Date(startsAt).getTime() + 30 * 60_000),
        timeZone: 'America/Argentina/Buenos_Aires',
        createdBy: t.clinic.userId,
        updatedBy: t.clinic.userId,
        ...more,
      }),
    );
    return id;
  };

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import {
  expectFieldErrors,
  type TestClinicContext,
  type TestResponse,
  useTestClinic,
} from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Attendance lines of issue 18: a price-list treatment, a tooth (FDI) and the accepted budget's
 * line they carry out; ids kept across edits; an invoiced line (or fee) locks; the pending
 * budget lines of a patient.
 */

/** An issued budget of the patient (point of sale '0001', number `n`) with its lines, accepted or not. */
async function budgetOf(
  t: TestClinicContext,
  patientId: string,
  options: {
    n: number;
    decision?: 'accepted' | 'rejected' | null;
    lines: { treatmentId?: string; tooth?: string; quantity: string }[];
  },
) {
  const accountId = t.clinic.accountId;
  const { rows: found } = await t.db.orm.execute<{ id: string }>(
    sql`select id from customers where account_id = ${accountId} and patient_id = ${patientId}`,
  );
  let customerId = found[0]?.id;
  if (!customerId) {
    customerId = newId();
    await t.db.orm.execute(sql`insert into customers (account_id, id, kind, patient_id, name)
      values (${accountId}, ${customerId}, 'patient', ${patientId}, 'Paciente de prueba')`);
  }
  const documentId = newId();
  await t.db.orm.execute(sql`insert into commercial_documents
      (account_id, id, side, status, document_type, customer_id, patient_id, point_of_service, date, currency)
      values (${accountId}, ${documentId}, 'sale', 'draft', 'budget', ${customerId}, ${patientId}, '0001', '2026-03-01', (select system_currency from accounts where id = ${accountId}))`);
  const lineIds: string[] = [];
  for (const [position, line] of options.lines.entries()) {
    const id = newId();
    lineIds.push(id);
    await t.db.orm.execute(sql`insert into document_lines
        (account_id, id, document_id, position, treatment_id, tooth, description, quantity, unit_price, vat_rate,
         subtotal1, discount, subtotal, vat, total)
        values (${accountId}, ${id}, ${documentId}, ${position}, ${line.treatmentId ?? null}, ${line.tooth ?? null},
          ${`Línea ${position + 1}`}, ${line.quantity}, '100.00', '0', '100.00', '0', '100.00', '0', '100.00')`);
  }
  await t.db.orm.execute(sql`update commercial_documents set status = 'issued', sequence_number = ${options.n},
      document_number = ${String(options.n).padStart(8, '0')} where account_id = ${accountId} and id = ${documentId}`);
  const decision = options.decision === undefined ? 'accepted' : options.decision;
  if (decision) {
    await t.db.orm.execute(sql`insert into budget_decisions (account_id, id, document_id, decision, decided_on)
        values (${accountId}, ${newId()}, ${documentId}, ${decision}, '2026-03-02')`);
  }
  return { documentId, customerId, lineIds };
}

/** An issued invoice that bills these sources (as markBilled writes them at issue). */
async function invoiceOf(
  t: TestClinicContext,
  customerId: string,
  sources: { kind: 'attendance_fee' | 'attendance_line' | 'budget_line'; id: string }[],
) {
  const accountId = t.clinic.accountId;
  const documentId = newId();
  await t.db.orm.execute(sql`insert into commercial_documents
      (account_id, id, side, status, document_type, customer_id, point_of_service, date, currency)
      values (${accountId}, ${documentId}, 'sale', 'draft', 'invoice', ${customerId}, '0001', '2026-03-05', (select system_currency from accounts where id = ${accountId}))`);
  for (const source of sources) {
    await t.db.orm.execute(sql`insert into billed_sources (account_id, source_kind, source_id, document_id)
        values (${accountId}, ${source.kind}, ${source.id}, ${documentId})`);
  }
  return documentId;
}

describe.each(availableBackends())('attendance lines on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const url = (id?: string, patient = t.patientId) => `/api/patients/${patient}/attendances${id ? `/${id}` : ''}`;

  let counter = 0;
  async function treatment(token = t.clinic.token) {
    counter += 1;
    return (
      await t.created<{ id: string }>('/api/treatments', {
        token,
        body: { code: `T${counter}`, name: `Endodoncia ${counter}`, durationMinutes: 60 },
      })
    ).id;
  }
  const attendance = (overrides: Record<string, unknown> = {}) => ({
    date: '2026-03-10T10:30:00-03:00',
    attendanceType: 'dentistry',
    professionalId: t.clinic.userId,
    titleResume: 'Endodoncia pieza 16',
    billable: true,
    attendanceFee: '10',
    lines: [],
    ...overrides,
  });
  async function create(body: object, patient = t.patientId) {
    return t.created(url(undefined, patient), { body });
  }
  async function customerOf(patientId: string) {
    const { rows } = await t.db.orm.execute<{ id: string }>(
      sql`select id from customers where account_id = ${t.clinic.accountId} and patient_id = ${patientId}`,
    );
    if (rows[0]) return rows[0].id;
    const id = newId();
    await t.db.orm.execute(sql`insert into customers (account_id, id, kind, patient_id, name)
      values (${t.clinic.accountId}, ${id}, 'patient', ${patientId}, 'Paciente de prueba')`);
    return id;
  }

  it('stores a line with a treatment, a tooth and an accepted budget line, and answers them', async () => {
    const treatmentId = await treatment();
    const budget = await budgetOf(t, t.patientId, { n: 1, lines: [{ treatmentId, tooth: '16', quantity: '2' }] });
    const created = await create(
      attendance({
        lines: [
          {
            description: 'Endodoncia',
            treatmentId,
            tooth: 16,
            budgetLineId: budget.lineIds[0],
            quantity: 1,
            price: '100',
          },
        ],
      }),
    );
    expect(created.lines).toEqual([
      expect.objectContaining({
        treatmentId,
        treatmentCode: expect.stringMatching(/^T\d+$/),
        treatmentName: expect.stringContaining('Endodoncia'),
        tooth: '16',
        budgetLineId: budget.lineIds[0],
        invoiced: false,
      }),
    ]);
    expect(created.feeInvoiced).toBe(false);
  });

  it('refuses an unknown tooth, another clinic treatment, a rejected budget line and a foreign line id (400)', async () => {
    const otherTreatment = await treatment(t.other.token);
    const rejected = await budgetOf(t, t.patientId, { n: 2, decision: 'rejected', lines: [{ quantity: '1' }] });
    const undecided = await budgetOf(t, t.patientId, { n: 3, decision: null, lines: [{ quantity: '1' }] });
    const bad = await t.call('POST', url(), {
      body: attendance({
        lines: [
          { description: 'A', tooth: '19', quantity: 1, price: '1' },
          { description: 'B', treatmentId: otherTreatment, quantity: 1, price: '1' },
          { description: 'C', budgetLineId: rejected.lineIds[0], quantity: 1, price: '1' },
          { description: 'D', budgetLineId: undecided.lineIds[0], quantity: 1, price: '1' },
        ],
      }),
    });
    expectFieldErrors(bad, [expect.objectContaining({ path: 'lines.0.tooth', code: 'invalid_value' })]);
    // The tooth is a contract error (first pass); the links are the service's (second pass).
    // Lines whose links the service refuses: another clinic's treatment, a rejected and an undecided budget's lines.
    const badLinks = [
      { description: 'B', treatmentId: otherTreatment, quantity: 1, price: '1' },
      { description: 'C', budgetLineId: rejected.lineIds[0], quantity: 1, price: '1' },
      { description: 'D', budgetLineId: undecided.lineIds[0], quantity: 1, price: '1' },
    ];
    const fieldPaths = (response: TestResponse) =>
      response
        .json()
        .details.fields.map((field: { path: string }) => field.path)
        .sort();
    const links = await t.call('POST', url(), {
      body: attendance({ lines: [...badLinks, { id: newId(), description: 'E', quantity: 1, price: '1' }] }),
    });
    expect(links.statusCode).toBe(400);
    expect(fieldPaths(links)).toEqual(['lines.3.id']);
    const linksOnly = await t.call('POST', url(), { body: attendance({ lines: badLinks }) });
    expect(linksOnly.statusCode).toBe(400);
    expect(fieldPaths(linksOnly)).toEqual(['lines.0.treatmentId', 'lines.1.budgetLineId', 'lines.2.budgetLineId']);
    // Another patient's accepted budget line is not this patient's.
    const otherPatient = await createTestPatient(t.app, t.clinic.token);
    const theirs = await budgetOf(t, otherPatient, { n: 4, lines: [{ quantity: '1' }] });
    const foreign = await t.call('POST', url(), {
      body: attendance({ lines: [{ description: 'F', budgetLineId: theirs.lineIds[0], quantity: 1, price: '1' }] }),
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details.fields).toEqual([
      expect.objectContaining({ path: 'lines.0.budgetLineId', code: 'invalid_value' }),
    ]);
  });

  it('keeps the row of an unchanged line across edits and replaces a changed one', async () => {
    const created = await create(
      attendance({
        lines: [
          { description: 'Consulta', quantity: 1, price: '20' },
          { description: 'Radiografía', tooth: '36', quantity: 2, price: '15.5' },
        ],
      }),
    );
    const [first, second] = created.lines;
    const edited = await t.call('PUT', url(created.id), {
      body: attendance({
        version: created.version,
        lines: [
          { id: second.id, description: 'Radiografía', tooth: '36', quantity: 2, price: '15.50' },
          { id: first.id, description: 'Consulta larga', quantity: 1, price: '20' },
          { description: 'Sellador', quantity: 1, price: '5' },
        ],
      }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const lines = edited.json().data.lines;
    expect(lines.map((line: { description: string }) => line.description)).toEqual([
      'Radiografía',
      'Consulta larga',
      'Sellador',
    ]);
    expect(lines[0].id).toBe(second.id);
    expect(lines[1].id).not.toBe(first.id);
    expect(edited.json().data.totalBillable).toBe('66.00');
    const { rows } = await t.db.orm.execute<{ id: string; deleted: boolean }>(
      sql`select id, deleted_at is not null as deleted from attendance_lines where attendance_id = ${created.id}`,
    );
    expect(rows.find((row) => row.id === first.id)?.deleted).toBe(true);
    expect(rows.find((row) => row.id === second.id)?.deleted).toBe(false);
    expect(rows).toHaveLength(4);
  });

  it('refuses to change or drop an invoiced line (409 attendance_line_invoiced) but lets the rest change', async () => {
    const created = await create(
      attendance({
        attendanceFee: '0',
        lines: [
          { description: 'Corona', quantity: 1, price: '300' },
          { description: 'Provisorio', quantity: 1, price: '50' },
        ],
      }),
    );
    const [crown, temporary] = created.lines;
    const customerId = await customerOf(t.patientId);
    await invoiceOf(t, customerId, [{ kind: 'attendance_line', id: crown.id }]);
    const view = await t.call('GET', url(created.id));
    expect(view.json().data.lines.map((line: { invoiced: boolean }) => line.invoiced)).toEqual([true, false]);

    const base = { version: created.version, attendanceFee: '0' };
    const changed = await t.call('PUT', url(created.id), {
      body: attendance({
        ...base,
        lines: [
          { id: crown.id, description: 'Corona', quantity: 2, price: '300' },
          { id: temporary.id, description: 'Provisorio', quantity: 1, price: '50' },
        ],
      }),
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ code: 'attendance_line_invoiced', details: { lineId: crown.id } });
    const dropped = await t.call('PUT', url(created.id), {
      body: attendance({ ...base, lines: [{ id: temporary.id, description: 'Provisorio', quantity: 1, price: '50' }] }),
    });
    expect(dropped.statusCode).toBe(409);
    expect(dropped.json().details.lineId).toBe(crown.id);
    // Sent without its id, the invoiced line would be a new one and the billed one dropped.
    const withoutId = await t.call('PUT', url(created.id), {
      body: attendance({
        ...base,
        lines: [
          { description: 'Corona', quantity: 1, price: '300' },
          { id: temporary.id, description: 'Provisorio', quantity: 1, price: '50' },
        ],
      }),
    });
    expect(withoutId.statusCode).toBe(409);

    const allowed = await t.call('PUT', url(created.id), {
      body: attendance({
        ...base,
        titleResume: 'Corona pieza 46',
        lines: [
          { id: crown.id, description: 'Corona', quantity: 1, price: '300.00' },
          { id: temporary.id, description: 'Provisorio acrílico', quantity: 1, price: '60' },
        ],
      }),
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json().data.lines[0]).toMatchObject({ id: crown.id, invoiced: true });
    expect(allowed.json().data.totalBillable).toBe('360.00');

    const removed = await t.call('DELETE', url(created.id));
    expect(removed.statusCode).toBe(409);
    expect(removed.json().code).toBe('attendance_line_invoiced');
  });

  it('locks the fee and every line of an attendance whose fee is invoiced', async () => {
    const created = await create(attendance({ lines: [{ description: 'Limpieza', quantity: 1, price: '40' }] }));
    const customerId = await customerOf(t.patientId);
    await invoiceOf(t, customerId, [{ kind: 'attendance_fee', id: created.id }]);
    const line = { id: created.lines[0].id, description: 'Limpieza', quantity: 1, price: '40' };
    const base = { version: created.version };
    for (const body of [
      attendance({ ...base, attendanceFee: '11', lines: [line] }),
      attendance({ ...base, billable: false, lines: [line] }),
      attendance({ ...base, lines: [line, { description: 'Flúor', quantity: 1, price: '5' }] }),
      attendance({ ...base, lines: [] }),
    ]) {
      const refused = await t.call('PUT', url(created.id), { body });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'attendance_line_invoiced', details: { lineId: null } });
    }
    const clinicalOnly = await t.call('PUT', url(created.id), {
      body: attendance({ ...base, detail: 'Sin novedades', lines: [line] }),
    });
    expect(clinicalOnly.statusCode, clinicalOnly.body).toBe(200);
    expect(clinicalOnly.json().data.feeInvoiced).toBe(true);
  });

  it('answers the pending lines of accepted budgets, with what attendances did of them', async () => {
    const patientId = await createTestPatient(t.app, t.clinic.token);
    const treatmentId = await treatment();
    const accepted = await budgetOf(t, patientId, {
      n: 10,
      lines: [{ treatmentId, tooth: '11', quantity: '2' }, { quantity: '1' }, { quantity: '1' }],
    });
    await budgetOf(t, patientId, { n: 11, decision: 'rejected', lines: [{ quantity: '1' }] });
    const customerId = await customerOf(patientId);
    await invoiceOf(t, customerId, [{ kind: 'budget_line', id: accepted.lineIds[2] as string }]);
    const budgetLines = (query = '') => t.call('GET', `/api/patients/${patientId}/budget-lines${query}`);

    const before = await budgetLines();
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data).toEqual([
      expect.objectContaining({
        id: accepted.lineIds[0],
        budgetId: accepted.documentId,
        budgetNumber: '0001-00000010',
        treatmentId,
        treatmentCode: expect.stringMatching(/^T\d+$/),
        tooth: '11',
        quantity: '2.00',
        done: '0',
      }),
      expect.objectContaining({ id: accepted.lineIds[1], done: '0' }),
    ]);

    const done = await create(
      attendance({
        lines: [
          { description: 'Conducto', budgetLineId: accepted.lineIds[0], quantity: 1, price: '100' },
          { description: 'Control', budgetLineId: accepted.lineIds[1], quantity: 1, price: '0' },
        ],
      }),
      patientId,
    );
    const after = await budgetLines();
    expect(after.json().data).toEqual([expect.objectContaining({ id: accepted.lineIds[0], done: '1' })]);
    // Editing that attendance: its own lines are not counted, the line it completed is answered.
    const editing = await budgetLines(`?attendanceId=${done.id}`);
    expect(editing.json().data.map((line: { id: string; done: string }) => [line.id, line.done])).toEqual([
      [accepted.lineIds[0], '0'],
      [accepted.lineIds[1], '0'],
    ]);
    // A deleted attendance no longer counts.
    expect((await t.call('DELETE', url(done.id, patientId))).statusCode).toBe(200);
    expect((await budgetLines()).json().data).toHaveLength(2);

    expect((await t.call('GET', `/api/patients/${patientId}/budget-lines`, { token: t.other.token })).statusCode).toBe(
      404,
    );
    expect((await budgetLines('?attendanceId=nope')).statusCode).toBe(400);
  });
});

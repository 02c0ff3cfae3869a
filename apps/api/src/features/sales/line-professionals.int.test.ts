import { randomUUID } from 'node:crypto';
import { clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectAnswer, expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * Issue 35, item 11: a sale line carries its professional. A line billed from an attendance or
 * made from a budget line takes that source's professional unless one is chosen; the choice is a
 * user of the clinic (the database's key says so too); production by professional groups by it.
 */
describe.each(availableBackends())('sale lines and their professionals on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const today = () => clinicToday('America/Argentina/Buenos_Aires');

  async function pointOfSale(token?: string) {
    const made = await t.call('POST', '/api/points-of-sale', {
      ...(token ? { token } : {}),
      body: { code: '0001', name: 'Recepción' },
    });
    expect(made.statusCode, made.body).toBe(201);
  }

  async function colleague(name: string, token?: string) {
    return (
      await t.created<{ id: string }>('/api/users', {
        ...(token ? { token } : {}),
        body: { completeName: name, email: `colega.${randomUUID()}@clinica.test`, level: 'user' },
      })
    ).id;
  }

  const sale = (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}, token?: string) =>
    t.call('POST', '/api/sales', {
      ...(token ? { token } : {}),
      body: {
        documentType: 'invoice',
        patientId: t.patientId,
        pointOfService: '0001',
        date: today(),
        currency: 'argentine_peso',
        conditionSale: 'current_account',
        lines,
        ...extra,
      },
    });

  const line = (values: Record<string, unknown> = {}) => ({
    description: 'Limpieza',
    quantity: '1',
    unitPrice: '100',
    vatRate: '0',
    ...values,
  });

  async function attendance(professionalId: string) {
    return (
      await t.created<{ id: string }>(`/api/patients/${t.patientId}/attendances`, {
        body: {
          date: new Date().toISOString(),
          attendanceType: 'dentistry',
          professionalId,
          titleResume: 'Consulta y endodoncia',
          billable: true,
          attendanceFee: '40',
          lines: [{ description: 'Endodoncia pieza 16', quantity: 1, price: '100' }],
        },
      })
    ).id;
  }

  it('an invoice drafted from attendances takes each attendance’s professional, fee and lines', async () => {
    const sosa = await colleague('Dr. Martín Sosa');
    const visit = await attendance(sosa);
    const drafted = await t.call('POST', `/api/patients/${t.patientId}/invoice-draft`, {
      body: { attendanceIds: [visit] },
    });
    expect(drafted.statusCode, drafted.body).toBe(201);
    const read = (await t.call('GET', `/api/sales/${drafted.json().data.id}`)).json().data;
    expect(read.lines).toHaveLength(2);
    for (const stored of read.lines) {
      expect(stored).toMatchObject({ attendanceId: visit, professionalId: sosa, professionalName: 'Dr. Martín Sosa' });
    }
    // The draft's PUT without a professional keeps the source's; null says "none" on purpose.
    const again = await t.call('PUT', `/api/sales/${read.id}`, {
      body: {
        documentType: 'invoice',
        customerId: read.customerId,
        pointOfService: '0001',
        date: read.date,
        currency: 'argentine_peso',
        conditionSale: 'current_account',
        version: read.version,
        lines: read.lines.map(
          (stored: Record<string, unknown>, index: number) =>
            ({
              description: stored.description,
              quantity: stored.quantity,
              unitPrice: stored.unitPrice,
              vatRate: stored.vatRate,
              attendanceId: stored.attendanceId,
              attendanceLineId: stored.attendanceLineId,
              ...(index === 1 ? { professionalId: null } : {}),
            }) as Record<string, unknown>,
        ),
      },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.lines.map((stored: { professionalId: string | null }) => stored.professionalId)).toEqual([
      sosa,
      null,
    ]);
  });

  it('a line sent with an attendance takes its professional; a chosen one wins', async () => {
    const diaz = await colleague('Dra. Carla Díaz');
    const gomez = await colleague('Dra. Laura Gómez');
    const visit = await attendance(diaz);
    const created = await sale([
      line({ attendanceId: visit, description: 'Consulta' }),
      line({ professionalId: gomez, description: 'Blanqueamiento' }),
      line({ description: 'Cepillo' }),
    ]);
    expect(created.statusCode, created.body).toBe(201);
    expect(
      created
        .json()
        .data.lines.map((stored: { professionalId: string | null; professionalName: string | null }) => [
          stored.professionalId,
          stored.professionalName,
        ]),
    ).toEqual([
      [diaz, 'Dra. Carla Díaz'],
      [gomez, 'Dra. Laura Gómez'],
      [null, null],
    ]);
  });

  it('an accepted budget converted into an invoice: each line keeps the budget line’s professional', async () => {
    await pointOfSale();
    const sosa = await colleague('Dr. Sosa Presupuesto');
    const budget = await sale(
      [
        line({ professionalId: sosa, description: 'Endodoncia', unitPrice: '290000' }),
        line({ description: 'Control', unitPrice: '10000' }),
      ],
      { documentType: 'budget', issue: true },
    );
    expect(budget.statusCode, budget.body).toBe(201);
    const id = budget.json().data.id as string;
    const decided = await t.call('POST', `/api/sales/${id}/decision`, { body: { decision: 'accepted' } });
    expect(decided.statusCode, decided.body).toBe(201);
    const converted = await t.call('POST', `/api/sales/${id}/convert`, { body: { documentType: 'invoice' } });
    expect(converted.statusCode, converted.body).toBe(201);
    const invoice = (await t.call('GET', `/api/sales/${converted.json().data.id}`)).json().data;
    expect(invoice.lines.map((stored: { professionalId: string | null }) => stored.professionalId)).toEqual([
      sosa,
      null,
    ]);
    // A credit note of the invoice takes back what it counted for the same professional.
    const issued = await t.call('POST', `/api/sales/${invoice.id}/issue`, { body: { version: invoice.version } });
    expect(issued.statusCode, issued.body).toBe(200);
    const note = await t.call('POST', `/api/sales/${invoice.id}/correct`, { body: { documentType: 'credit_note' } });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json().data.lines.map((stored: { professionalId: string | null }) => stored.professionalId)).toEqual([
      sosa,
      null,
    ]);
  });

  it('refuses another clinic’s professional, an unknown one and a customer; the database refuses it too', async () => {
    const theirs = t.other.userId;
    for (const professionalId of [theirs, randomUUID()]) {
      const refused = await sale([line({ professionalId })]);
      expectAnswer(refused, 400, {
        code: 'validation_error',
        details: { fields: [{ path: 'lines.0.professionalId', code: 'invalid_value' }] },
      });
    }
    const malformed = await sale([line({ professionalId: 'nadie' })]);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details.fields).toContainEqual({ path: 'lines.0.professionalId', code: 'invalid_value' });
    // Around the service: the key (account_id, professional_id) → users refuses another clinic's user.
    const draft = await sale([line()]);
    const lineId = draft.json().data.lines[0].id as string;
    await expectRefusedAsClinic(
      t,
      sql`update document_lines set professional_id = ${theirs}::uuid where id = ${lineId}::uuid`,
    );
  });

  it('production by professional groups the period’s lines by their professional', async () => {
    const clinic = await t.newClinic();
    const patientId = await t.newPatient(clinic.token);
    await pointOfSale(clinic.token);
    const sosa = await colleague('Dr. Informe Sosa', clinic.token);
    const diaz = await colleague('Dra. Informe Díaz', clinic.token);
    const issued = await sale(
      [
        line({ professionalId: sosa, unitPrice: '290000' }),
        line({ professionalId: diaz, unitPrice: '850000' }),
        line({ professionalId: sosa, unitPrice: '120000' }),
        line({ unitPrice: '5000' }),
      ],
      { patientId, issue: true },
      clinic.token,
    );
    expect(issued.statusCode, issued.body).toBe(201);
    const report = await t.call('GET', `/api/reports/production-by-professional?from=${today()}&to=${today()}`, {
      token: clinic.token,
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data.rows).toEqual([
      { professional: 'Dr. Informe Sosa', attendances: 0, net: '410000.00' },
      { professional: 'Dra. Informe Díaz', attendances: 0, net: '850000.00' },
      { professional: null, attendances: 0, net: '5000.00' },
    ]);
    expect(report.json().data.totals).toEqual({ attendances: 0, net: '1265000.00' });
  });
});

import { attendanceRecord } from '@odontia/shared/routes/medical-history';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { patientRecordApi } from '../../../test/patient-record-api.ts';
import { describeRecordContract } from '../../../test/record-contract.ts';
import { stockLedgerMismatches } from '../../../test/supplies.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** Attendances: billing with decimals, stock in the same transaction, finished lock, addenda, isolation (issue 5). */
describe.each(availableBackends())('attendances on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  let counter = 0;
  async function item(
    kind: 'supply' | 'medication',
    totalStock: number,
    overrides: Record<string, unknown> = {},
    token = t.clinic.token,
  ) {
    counter += 1;
    const body = {
      name: kind === 'supply' ? `Guantes ${counter}` : `Articaína ${counter}`,
      costPrice: '1',
      basePrice: '2',
      taxRate: '21',
      minStock: 0,
      reorderStock: 0,
      totalStock,
      // A medicine must be approved to be used.
      ...(kind === 'supply' ? {} : { approvalStatus: 'approved' }),
    };
    return (
      await t.created<{ id: string }>(kind === 'supply' ? '/api/supplies' : '/api/medications', {
        token,
        body: {
          ...body,
          ...overrides,
        },
      })
    ).id;
  }
  async function stockOf(id: string): Promise<number> {
    const { rows } = await t.db.orm.execute<{ total_stock: number }>(
      sql`select total_stock from inventory_items where id = ${id}`,
    );
    return rows[0]?.total_stock ?? Number.NaN;
  }
  async function movementsOf(attendanceId: string) {
    const { rows } = await t.db.orm.execute<{ item_id: string; kind: string; quantity: number }>(
      sql`select item_id, kind, quantity from stock_movements
          where reference_type = 'attendance' and reference_id = ${attendanceId} order by created_at, id`,
    );
    return rows;
  }
  const attendance = (overrides: Record<string, unknown> = {}) => ({
    date: '2026-03-10T10:30:00-03:00',
    attendanceType: 'dentistry',
    specialization: 'Odontología general',
    professionalId: t.clinic.userId,
    titleResume: 'Obturación pieza 36',
    resume: 'Caries oclusal',
    detail: 'Anestesia infiltrativa, obturación con resina',
    nextAppointment: '2026-04-10',
    billable: true,
    attendanceFee: '0.01',
    lines: [{ description: 'Resina compuesta', quantity: 3, price: '33.33' }],
    ...overrides,
  });
  const { url, create, contract } = patientRecordApi(t, attendanceRecord, () => attendance());

  describeRecordContract(t, {
    ...contract,
    table: 'attendances',
    update: { body: () => attendance({ titleResume: 'Primera' }), shows: { titleResume: 'Primera' } },
    history: { before: { titleResume: 'Obturación pieza 36' }, after: { titleResume: 'Primera' } },
    softDelete: { auditBefore: { titleResume: 'Obturación pieza 36' } },
  });
  // The ledger invariant after every scenario: each item's stock is the sum of its movements.
  afterEach(async () => {
    expect(await dayFigureMismatches(t)).toEqual([]);
    expect(await stockLedgerMismatches(t.db)).toEqual([]);
  });

  it('creates an attendance: group derived, totals with decimals, supplies and medicines leave stock, audit row', async () => {
    const gloves = await item('supply', 10);
    const needles = await item('supply', 5);
    const anaesthetic = await item('medication', 4);
    const response = await t.call('POST', url(), {
      body: attendance({
        supplies: [
          { itemId: gloves, quantity: 2 },
          { itemId: needles, quantity: 1 },
        ],
        medications: [{ itemId: anaesthetic, quantity: 1 }],
      }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.code).toBe('attendance_created');
    expect(body.data).toMatchObject({
      patientId: t.patientId,
      date: '2026-03-10T13:30:00.000Z',
      attendanceType: 'dentistry',
      attendanceGroup: 'specializations',
      titleResume: 'Obturación pieza 36',
      nextAppointment: '2026-04-10',
      finished: false,
      billable: true,
      attendanceFee: '0.01',
      totalBillable: '100.00',
      lines: [{ description: 'Resina compuesta', itemId: null, quantity: 3, price: '33.33', total: '99.99' }],
      supplies: [
        { itemId: gloves, quantity: 2 },
        { itemId: needles, quantity: 1 },
      ],
      medications: [{ itemId: anaesthetic, quantity: 1 }],
      addenda: [],
      version: 1,
    });
    expect(body.data.supplies[0].name).toMatch(/^Guantes/);
    expect(body.data.professionalName).toMatch(/^Ana Pérez/);
    expect([await stockOf(gloves), await stockOf(needles), await stockOf(anaesthetic)]).toEqual([8, 4, 3]);
    expect(await movementsOf(body.data.id)).toEqual(
      expect.arrayContaining([
        { item_id: gloves, kind: 'consumption', quantity: -2 },
        { item_id: needles, kind: 'consumption', quantity: -1 },
        { item_id: anaesthetic, kind: 'consumption', quantity: -1 },
      ]),
    );
    const events = await t.auditEvents('attendance_created');
    const event = events.find((row) => row.entityId === body.data.id);
    expect(event).toMatchObject({ entity: 'attendance', patientId: t.patientId });
    expect(event?.after).toMatchObject({
      totalBillable: '100.00',
      supplies: [
        { itemId: gloves, quantity: 2 },
        { itemId: needles, quantity: 1 },
      ],
    });
  });

  it('an edit moves only the difference per item', async () => {
    const gloves = await item('supply', 10);
    const needles = await item('supply', 5);
    const cotton = await item('supply', 5);
    const anaesthetic = await item('medication', 4);
    const created = await create(
      attendance({
        supplies: [
          { itemId: gloves, quantity: 2 },
          { itemId: needles, quantity: 3 },
        ],
        medications: [{ itemId: anaesthetic, quantity: 2 }],
      }),
    );
    const edited = await t.call('PUT', url(created.id), {
      body: attendance({
        version: 1,
        titleResume: 'Obturación pieza 36 y 37',
        lines: [
          { description: 'Resina compuesta', quantity: 2, price: '33.33' },
          { description: 'Radiografía', quantity: 1, price: '10.5' },
        ],
        supplies: [
          { itemId: gloves, quantity: 5 },
          { itemId: needles, quantity: 1 },
          { itemId: cotton, quantity: 1 },
        ],
        medications: [],
      }),
    });
    expectAnswer(edited, 200, {
      code: 'attendance_updated',
      data: { version: 2, totalBillable: '77.17', medications: [], lines: [{ total: '66.66' }, { total: '10.50' }] },
    });
    expect([await stockOf(gloves), await stockOf(needles), await stockOf(cotton), await stockOf(anaesthetic)]).toEqual([
      5, 4, 4, 4,
    ]);
    const movements = await movementsOf(created.id);
    expect(movements.slice(3)).toEqual(
      expect.arrayContaining([
        { item_id: gloves, kind: 'consumption', quantity: -3 },
        { item_id: needles, kind: 'return', quantity: 2 },
        { item_id: cotton, kind: 'consumption', quantity: -1 },
        { item_id: anaesthetic, kind: 'return', quantity: 2 },
      ]),
    );
    expect(movements).toHaveLength(7);
    // The same items again: no movement at all.
    const same = await t.call('PUT', url(created.id), {
      body: attendance({
        version: 2,
        supplies: [
          { itemId: cotton, quantity: 1 },
          { itemId: gloves, quantity: 5 },
          { itemId: needles, quantity: 1 },
        ],
      }),
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(await movementsOf(created.id)).toHaveLength(7);
    const changes = await t.call('GET', `${url(created.id)}/changes`);
    expect(changes.json().data[1]).toMatchObject({
      action: 'attendance_updated',
      before: { titleResume: 'Obturación pieza 36' },
      after: { titleResume: 'Obturación pieza 36 y 37' },
    });
  });

  it('not enough stock refuses the whole save: nothing written, stock unchanged', async () => {
    const gloves = await item('supply', 3);
    const anaesthetic = await item('medication', 1);
    const before = await t.call('GET', `${url()}?pageSize=100`);
    const refused = await t.call('POST', url(), {
      body: attendance({
        supplies: [{ itemId: gloves, quantity: 2 }],
        medications: [{ itemId: anaesthetic, quantity: 2 }],
      }),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'insufficient_stock',
      details: { items: [{ id: anaesthetic, available: 1, requested: 2 }] },
    });
    expect([await stockOf(gloves), await stockOf(anaesthetic)]).toEqual([3, 1]);
    const after = await t.call('GET', `${url()}?pageSize=100`);
    expect(after.json().total).toBe(before.json().total);
    // An edit asking for more than there is changes nothing either.
    const created = await create(attendance({ supplies: [{ itemId: gloves, quantity: 1 }] }));
    const more = await t.call('PUT', url(created.id), {
      body: attendance({ version: 1, titleResume: 'Cambiada', supplies: [{ itemId: gloves, quantity: 4 }] }),
    });
    expect(more.statusCode).toBe(409);
    expect(more.json().code).toBe('insufficient_stock');
    expect(await stockOf(gloves)).toBe(2);
    expect((await t.call('GET', url(created.id))).json().data).toMatchObject({
      titleResume: 'Obturación pieza 36',
      version: 1,
      supplies: [{ itemId: gloves, quantity: 1 }],
    });
  });

  it('two saves at once for the last units: one is taken, the other refused whole', async () => {
    // Several rounds: the race (each save references the item before it moves its stock) used to
    // end in a deadlock, a 500, about one time in three.
    for (let round = 0; round < 5; round += 1) {
      const implants = await item('supply', 3);
      const answers = await Promise.all(
        [0, 1].map(() =>
          t.call('POST', url(), { body: attendance({ supplies: [{ itemId: implants, quantity: 2 }] }) }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join('\n')).toEqual([201, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().code).toBe('insufficient_stock');
      expect(await stockOf(implants)).toBe(1);
    }
  });

  it('delete is soft and returns every item to stock', async () => {
    const gloves = await item('supply', 10);
    const anaesthetic = await item('medication', 4);
    const created = await create(
      attendance({ supplies: [{ itemId: gloves, quantity: 4 }], medications: [{ itemId: anaesthetic, quantity: 1 }] }),
    );
    expect([await stockOf(gloves), await stockOf(anaesthetic)]).toEqual([6, 3]);
    const removed = await t.call('DELETE', url(created.id));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ code: 'attendance_deleted' });
    expect([await stockOf(gloves), await stockOf(anaesthetic)]).toEqual([10, 4]);
    expect((await movementsOf(created.id)).slice(2)).toEqual(
      expect.arrayContaining([
        { item_id: gloves, kind: 'return', quantity: 4 },
        { item_id: anaesthetic, kind: 'return', quantity: 1 },
      ]),
    );
    const events = await t.auditEvents('attendance_deleted');
    expect(events.find((row) => row.entityId === created.id)?.before).toMatchObject({
      supplies: [{ itemId: gloves, quantity: 4 }],
    });
  });

  it('a finished attendance cannot be edited or deleted; addenda correct it and it stays readable', async () => {
    const gloves = await item('supply', 10);
    const created = await create(attendance({ supplies: [{ itemId: gloves, quantity: 1 }] }));
    const early = await t.call('POST', `${url(created.id)}/addenda`, { body: { text: 'Demasiado pronto' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('attendance_not_finished');
    const finish = await t.call('PUT', url(created.id), {
      body: attendance({ version: 1, finished: true, supplies: [{ itemId: gloves, quantity: 1 }] }),
    });
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.json().data.finished).toBe(true);
    const edit = await t.call('PUT', url(created.id), { body: attendance({ version: 2, titleResume: 'Otra' }) });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('attendance_finished');
    const remove = await t.call('DELETE', url(created.id));
    expect(remove.statusCode).toBe(409);
    expect(remove.json().code).toBe('attendance_finished');
    expect(await stockOf(gloves)).toBe(9);
    const blank = await t.call('POST', `${url(created.id)}/addenda`, { body: { text: ' ' } });
    expect(blank.json().details.fields).toEqual([{ path: 'text', code: 'required' }]);
    const addendum = await t.call('POST', `${url(created.id)}/addenda`, {
      body: {
        text: 'La pieza tratada fue la 37, no la 36.',
      },
    });
    expectAnswer(addendum, 201, {
      code: 'attendance_addendum_created',
      data: {
        titleResume: 'Obturación pieza 36',
        version: 2,
        addenda: [{ text: 'La pieza tratada fue la 37, no la 36.' }],
      },
    });
    expect(addendum.json().data.addenda[0].userName).toMatch(/^Ana Pérez/);
    const changes = await t.call('GET', `${url(created.id)}/changes`);
    expect(changes.json().data[0]).toMatchObject({
      action: 'attendance_addendum_created',
      after: { text: 'La pieza tratada fue la 37, no la 36.' },
    });
  });

  it('checks the items: a supply must be a supply, a medicine approved and active, lines name real items', async () => {
    const gloves = await item('supply', 10);
    const review = await item('medication', 10, { approvalStatus: 'underReview' });
    const inactive = await item('medication', 10, { productStatus: 'inactive' });
    const foreign = await item('supply', 10, {}, t.other.token);
    const response = await t.call('POST', url(), {
      body: attendance({
        supplies: [
          { itemId: review, quantity: 1 },
          { itemId: foreign, quantity: 1 },
        ],
        medications: [
          { itemId: gloves, quantity: 1 },
          { itemId: inactive, quantity: 1 },
        ],
        lines: [{ description: 'Guantes', itemId: newId(), quantity: 1, price: '1' }],
      }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toEqual([
      { path: 'supplies.0.itemId', code: 'invalid_value' },
      { path: 'supplies.1.itemId', code: 'invalid_value' },
      { path: 'medications.0.itemId', code: 'invalid_value' },
      { path: 'medications.1.itemId', code: 'invalid_value' },
      { path: 'lines.0.itemId', code: 'invalid_value' },
    ]);
    expect(await stockOf(gloves)).toBe(10);
    const shape = await t.call('POST', url(), {
      body: attendance({
        date: 'ayer',
        attendanceType: 'magic',
        titleResume: '',
        attendanceFee: '1,234',
        lines: [{ description: 'x', quantity: 0, price: '-1' }],
        supplies: [
          { itemId: gloves, quantity: 1 },
          { itemId: gloves, quantity: 2 },
        ],
      }),
    });
    expectFieldErrors(shape, [
      { path: 'date', code: 'invalid_date' },
      { path: 'attendanceType', code: 'invalid_value' },
      { path: 'titleResume', code: 'required' },
      { path: 'attendanceFee', code: 'invalid_number' },
      { path: 'lines.0.quantity', code: 'too_small', min: 1 },
      { path: 'lines.0.price', code: 'not_negative' },
      { path: 'supplies.1.itemId', code: 'invalid_value' },
    ]);
    const missing = await t.call('POST', url(), { body: {} });
    expectFieldErrors(missing, [
      { path: 'date', code: 'required' },
      { path: 'attendanceType', code: 'required' },
      { path: 'professionalId', code: 'required' },
      { path: 'titleResume', code: 'required' },
    ]);
  });

  it('a stale edit answers 409 with the current values; nothing moves', async () => {
    const gloves = await item('supply', 10);
    const created = await create(attendance({ supplies: [{ itemId: gloves, quantity: 1 }] }));
    await t.call('PUT', url(created.id), {
      body: attendance({ version: 1, titleResume: 'Primera', supplies: [{ itemId: gloves, quantity: 1 }] }),
    });
    const stale = await t.call('PUT', url(created.id), {
      body: attendance({ version: 1, titleResume: 'Segunda', supplies: [{ itemId: gloves, quantity: 6 }] }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'version_conflict',
      details: { current: { titleResume: 'Primera', version: 2, supplies: [{ itemId: gloves, quantity: 1 }] } },
    });
    expect(await stockOf(gloves)).toBe(9);
  });

  it('lists newest first without the details, paginated', async () => {
    const patient = await t.newPatient();
    await create(attendance({ date: '2025-01-01T09:00:00Z', titleResume: 'Antigua' }), patient);
    await create(
      attendance({ date: '2026-01-01T09:00:00Z', titleResume: 'Reciente', attendanceType: 'x_ray' }),
      patient,
    );
    await create(attendance({ date: '2025-06-01T09:00:00Z', titleResume: 'Intermedia' }), patient);
    const page = await t.call('GET', `${url(undefined, patient)}?pageSize=2`);
    expectAnswer(page, 200, { total: 3, page: 1, pageSize: 2 });
    expect(page.json().data.map((row: { titleResume: string }) => row.titleResume)).toEqual(['Reciente', 'Intermedia']);
    expect(page.json().data[0]).toMatchObject({ attendanceGroup: 'diagnosis', totalBillable: '100.00' });
    expect(page.json().data[0]).not.toHaveProperty('lines');
  });

  it('answers the first page of a history of 1,200 attendances, among 20,000 of the clinic, from the patient index', async () => {
    const patient = await t.newPatient();
    await t.db.orm.execute(sql`
      insert into attendances (account_id, id, patient_id, date, attendance_type, attendance_group, professional_id,
                               title_resume, attendance_fee, total_billable, created_by, updated_by)
      select ${t.clinic.accountId}::uuid, gen_random_uuid(), ${patient}::uuid,
             timestamptz '2020-01-01' + n * interval '1 day', 'dentistry', 'specializations', ${t.clinic.userId}::uuid,
             'Control ' || n, 0, 0, ${t.clinic.userId}::uuid, ${t.clinic.userId}::uuid
      from generate_series(1, 1200) as n`);
    // Among the clinic's other patients' attendances, as in a real clinic (the clinic's "latest
    // attendances" index, attendances_recent_idx, would otherwise serve a one-patient clinic as well).
    const others = await t.newPatient();
    await t.db.orm.execute(sql`
      insert into attendances (account_id, id, patient_id, date, attendance_type, attendance_group, professional_id,
                               title_resume, attendance_fee, total_billable, created_by, updated_by)
      select ${t.clinic.accountId}::uuid, gen_random_uuid(), ${others}::uuid,
             timestamptz '2020-01-01' + (n % 1200) * interval '1 day', 'dentistry', 'specializations', ${t.clinic.userId}::uuid,
             'Otro ' || n, 0, 0, ${t.clinic.userId}::uuid, ${t.clinic.userId}::uuid
      from generate_series(1, 20000) as n`);
    await t.db.orm.execute(sql`analyze attendances`);
    const started = performance.now();
    const page = await t.call('GET', `${url(undefined, patient)}?pageSize=20`);
    const elapsed = performance.now() - started;
    expect(page.json().total).toBe(1200);
    expect(page.json().data[0].titleResume).toBe('Control 1200');
    expect(page.json().data).toHaveLength(20);
    expect(elapsed).toBeLessThan(1000);
    // On a table this small a scan and a sort are cheaper; without scans, the index alone gives the order.
    const rows = await t.db.orm.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const result = await tx.execute<{ 'QUERY PLAN': string }>(sql`
        explain select id from attendances
        where account_id = ${t.clinic.accountId} and patient_id = ${patient} and deleted_at is null
        order by date desc nulls last, id desc nulls last limit 20`);
      return result.rows;
    });
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('attendances_patient_idx');
    expect(plan).not.toContain('Sort');
  }, 240_000); // 21,200 rows through the attendances' triggers on PGlite: over 30 s on a loaded CI machine, 144 s on a busy one.

  it("answers attendance_not_found for another clinic's attendance's addenda; a customer may not add one", async () => {
    const created = await create(attendance());
    const otherPatient = await t.newPatient(t.other.token);
    expect(
      (
        await t.call('POST', `${url(created.id, otherPatient)}/addenda`, { token: t.other.token, body: { text: 'x' } })
      ).json().code,
    ).toBe('attendance_not_found');
    await t.asLevel('customer', async () => {
      expect((await t.call('POST', `${url(created.id)}/addenda`, { body: { text: 'x' } })).statusCode).toBe(403);
    });
  });
});

import { prescriptionRecord } from '@odontia/shared/routes/medical-history';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { patientRecordApi, type WrittenRecord } from '../../../test/patient-record-api.ts';
import { describeRecordContract } from '../../../test/record-contract.ts';
import { createSupply, nitrileGlovesBox } from '../../../test/supplies.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** A text of the PDF's info dictionary as pdfkit writes it: ASCII as is, else UTF-16BE with a BOM. */
function pdfHas(pdf: Buffer, text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII check
  if (/^[\x00-\x7f]*$/.test(text) && pdf.includes(Buffer.from(text, 'latin1'))) return true;
  return pdf.includes(Buffer.from(`\ufeff${text}`, 'utf16le').swap16());
}

/** Prescriptions: validation, the catalogue, professional details, codes, PDF, conflicts, isolation, levels (issue 6). */
describe.each(availableBackends())('prescriptions on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  let approvedId: string;
  const prescription = (overrides: Record<string, unknown> = {}) => ({
    date: '2026-03-10',
    professionalId: t.clinic.userId,
    diagnosis: 'Pulpitis irreversible 36',
    lines: [
      {
        medicationId: approvedId,
        medicine: 'ignored: the catalogue name is printed',
        dose: '1 comprimido',
        frequency: 'cada 8 horas',
        duration: '7 días',
        quantity: '21',
      },
      { medicine: 'Enjuague de clorhexidina 0,12 %', frequency: 'dos veces al día', instructions: 'No tragar' },
    ],
    ...overrides,
  });
  const { url, create, contract } = patientRecordApi<
    WrittenRecord & { verificationCode: string; lines: { medicine: string }[] }
  >(t, prescriptionRecord, () => prescription());
  /** An approved medicine of the catalogue, 10 in stock. */
  const amoxicillin = {
    name: 'Amoxicilina 500 mg',
    activePrinciple: 'Amoxicilina',
    costPrice: '100',
    basePrice: '150',
    taxRate: '21',
    minStock: 0,
    reorderStock: 0,
    totalStock: 10,
    approvalStatus: 'approved',
  };
  async function medication(overrides: Record<string, unknown> = {}, token = t.clinic.token) {
    return (
      await t.created<{ id: string }>('/api/medications', {
        token,
        body: { ...amoxicillin, ...overrides },
      })
    ).id;
  }

  beforeAll(async () => {
    approvedId = await medication();
    const profile = await t.call('PATCH', '/api/auth/system/me', {
      body: {
        licenseNumber: 'MN 12345',
        specialty: 'Odontólogo, endodoncista',
      },
    });
    expect(profile.statusCode, profile.body).toBe(200);
  });

  describeRecordContract(t, {
    ...contract,
    table: 'prescriptions',
    update: {
      body: () =>
        prescription({
          lines: [{ medicine: 'Ibuprofeno 400 mg', dose: '1 comprimido', frequency: 'cada 8 horas si hay dolor' }],
        }),
      shows: { lines: [{ medicine: 'Ibuprofeno 400 mg' }] },
    },
    history: {
      before: { lines: expect.arrayContaining([expect.stringMatching(/^Amoxicilina/)]) },
      after: { lines: ['Ibuprofeno 400 mg · 1 comprimido · cada 8 horas si hay dolor'] },
    },
    softDelete: { auditBefore: { diagnosis: 'Pulpitis irreversible 36', version: 1 } },
  });

  it('writes a prescription: catalogue name copied, free text kept, professional details and a code, audited', async () => {
    const response = await t.call('POST', url(), { body: prescription() });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      code: 'prescription_created',
      data: {
        patientId: t.patientId,
        date: '2026-03-10',
        professionalId: t.clinic.userId,
        professionalLicense: 'MN 12345',
        professionalSpecialty: 'Odontólogo, endodoncista',
        diagnosis: 'Pulpitis irreversible 36',
        notes: null,
        attendanceId: null,
        version: 1,
        lines: [
          {
            position: 1,
            medicationId: approvedId,
            medicine: 'Amoxicilina 500 mg',
            dose: '1 comprimido',
            frequency: 'cada 8 horas',
            duration: '7 días',
            quantity: '21',
            instructions: null,
          },
          {
            position: 2,
            medicationId: null,
            medicine: 'Enjuague de clorhexidina 0,12 %',
            dose: null,
            instructions: 'No tragar',
          },
        ],
      },
    });
    expect(body.data.professionalName).toMatch(/^Ana Pérez/);
    expect(body.data.verificationCode).toMatch(/^RX-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    const events = await t.auditEvents('prescription_created');
    const event = events.find((row) => row.entityId === body.data.id);
    expect(event).toMatchObject({ entity: 'prescription', patientId: t.patientId });
    expect(event?.after).toMatchObject({
      professionalLicense: 'MN 12345',
      verificationCode: body.data.verificationCode,
      lines: [
        'Amoxicilina 500 mg · 1 comprimido · cada 8 horas · 7 días · 21',
        'Enjuague de clorhexidina 0,12 % · dos veces al día · No tragar',
      ],
    });
  });

  it('validates the lines, the date, the professional and the attendance with field codes', async () => {
    const none = await t.call('POST', url(), { body: prescription({ lines: [], date: '2026-02-30' }) });
    expectFieldErrors(none, [
      { path: 'lines', code: 'required' },
      { path: 'date', code: 'invalid_date' },
    ]);
    const tooMany = await t.call('POST', url(), {
      body: prescription({ lines: Array.from({ length: 21 }, () => ({ medicine: 'Ibuprofeno' })) }),
    });
    expect(tooMany.json().details.fields).toEqual([{ path: 'lines', code: 'too_big' }]);
    const blank = await t.call('POST', url(), { body: prescription({ lines: [{ medicine: ' ', dose: '1' }] }) });
    expect(blank.json().details.fields).toEqual([{ path: 'lines.0.medicine', code: 'required' }]);
    const badId = await t.call('POST', url(), {
      body: prescription({ lines: [{ medicationId: 'x', medicine: 'Ibuprofeno' }] }),
    });
    expect(badId.json().details.fields).toEqual([{ path: 'lines.0.medicationId', code: 'invalid_value' }]);
    const unknownItem = await t.call('POST', url(), {
      body: prescription({ lines: [{ medicationId: newId(), medicine: 'Ibuprofeno' }] }),
    });
    expect(unknownItem.statusCode).toBe(400);
    expect(unknownItem.json().details.fields).toEqual([{ path: 'lines.0.medicationId', code: 'invalid_value' }]);
    const stranger = await t.call('POST', url(), { body: prescription({ professionalId: t.other.userId }) });
    expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
    const attendance = await t.call('POST', url(), { body: prescription({ attendanceId: newId() }) });
    expect(attendance.json().details.fields).toEqual([{ path: 'attendanceId', code: 'invalid_value' }]);
  });

  it("refuses a medicine under review, suspended, inactive, a supply or another clinic's with medication_not_prescribable or 400", async () => {
    const underReview = await medication({ name: 'Ketorolac en revisión', approvalStatus: 'underReview' });
    const inactive = await medication({ name: 'Diclofenac discontinuado', productStatus: 'inactive' });
    const supply = await createSupply(t, {
      name: 'Guantes de nitrilo',
      ...nitrileGlovesBox,
      totalStock: 10,
    });
    for (const [id, name] of [
      [underReview, 'Ketorolac en revisión'],
      [inactive, 'Diclofenac discontinuado'],
      [supply, 'Guantes de nitrilo'],
    ] as const) {
      const refused = await t.call('POST', url(), {
        body: prescription({ lines: [{ medicine: 'Ibuprofeno' }, { medicationId: id, medicine: name }] }),
      });
      expect(refused.statusCode, name).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'medication_not_prescribable', details: { name } });
    }
    const foreign = await medication({ name: 'Amoxicilina ajena' }, t.other.token);
    const refused = await t.call('POST', url(), {
      body: prescription({ lines: [{ medicationId: foreign, medicine: 'Amoxicilina ajena' }] }),
    });
    expect(refused.statusCode).toBe(400);
    // Suspended after approval: no longer prescribable either.
    const suspended = await medication({ name: 'Metronidazol suspendido' });
    const suspend = await t.call('PUT', `/api/medications/${suspended}`, {
      body: { ...amoxicillin, name: 'Metronidazol suspendido', approvalStatus: 'suspended', version: 1 },
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    const answer = await t.call('POST', url(), {
      body: prescription({ lines: [{ medicationId: suspended, medicine: 'x' }] }),
    });
    expect(answer.json()).toMatchObject({
      code: 'medication_not_prescribable',
      details: { name: 'Metronidazol suspendido' },
    });
  });

  it('refuses a prescription by a professional without a licence number (matrícula), naming them', async () => {
    const invited = await t.call('POST', '/api/users', {
      body: { completeName: 'Rocío Sin Matrícula', email: `sin.matricula.${Date.now()}@clinica.test`, level: 'user' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const professionalId = invited.json().data.id;
    const refused = await t.call('POST', url(), { body: prescription({ professionalId }) });
    expectAnswer(refused, 409, {
      code: 'professional_license_required',
      details: { name: 'Rocío Sin Matrícula', path: 'professionalId' },
    });
    // Moving an existing prescription to them is refused too; with the licence, both go through.
    const created = await create();
    const moved = await t.call('PUT', url(created.id), {
      body: prescription({ professionalId, version: created.version }),
    });
    expect(moved.json().code).toBe('professional_license_required');
    const licensed = await t.call('PATCH', `/api/users/${professionalId}`, {
      body: { licenseNumber: 'MP 4321', version: invited.json().data.version },
    });
    expect(licensed.statusCode, licensed.body).toBe(200);
    expect((await t.call('POST', url(), { body: prescription({ professionalId }) })).statusCode).toBe(201);
  });

  it('keeps the professional details printed when the profile changes later', async () => {
    const created = await create();
    const patch = await t.call('PATCH', '/api/auth/system/me', { body: { licenseNumber: 'MP 999', specialty: '' } });
    expect(patch.json().data).toMatchObject({ licenseNumber: 'MP 999', specialty: null });
    try {
      const again = (await t.call('GET', url(created.id))).json().data;
      expect(again).toMatchObject({
        professionalLicense: 'MN 12345',
        professionalSpecialty: 'Odontólogo, endodoncista',
      });
      const fresh = await create();
      expect(fresh).toMatchObject({ professionalLicense: 'MP 999', professionalSpecialty: null });
      // An edit by the same professional keeps what was printed.
      const edited = await t.call('PUT', url(created.id), { body: prescription({ version: 1, notes: 'ok' }) });
      expect(edited.json().data).toMatchObject({ professionalLicense: 'MN 12345', notes: 'ok' });
    } finally {
      await t.call('PATCH', '/api/auth/system/me', {
        body: {
          licenseNumber: 'MN 12345',
          specialty: 'Odontólogo, endodoncista',
        },
      });
    }
  });

  it('gives each prescription its own code and finds it by code within the clinic only', async () => {
    const codes = new Set<string>();
    let last = await create();
    codes.add(last.verificationCode);
    for (let index = 0; index < 5; index += 1) {
      last = await create();
      codes.add(last.verificationCode);
    }
    expect(codes.size).toBe(6);
    const found = await t.call('GET', `/api/prescriptions/by-code/${last.verificationCode.toLowerCase()}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toMatchObject({
      id: last.id,
      patientId: t.patientId,
      verificationCode: last.verificationCode,
      lines: [{ medicine: 'Amoxicilina 500 mg' }, { medicine: 'Enjuague de clorhexidina 0,12 %' }],
    });
    expect(found.json().data.patientName).toMatch(/^Lucía Fernández/);
    expect(
      (await t.call('GET', `/api/prescriptions/by-code/${last.verificationCode}`, { token: t.other.token })).json()
        .code,
    ).toBe('prescription_not_found');
    const malformed = await t.call('GET', '/api/prescriptions/by-code/RX-0000-1111');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details.fields).toEqual([{ path: 'params.code', code: 'invalid_format' }]);
    await t.call('DELETE', url(last.id));
    expect((await t.call('GET', `/api/prescriptions/by-code/${last.verificationCode}`)).statusCode).toBe(404);
    const { rows } = await t.db.orm.execute(
      sql`select count(*)::int as n, count(distinct verification_code)::int as d from prescriptions`,
    );
    expect(rows[0]).toEqual({ n: expect.any(Number), d: (rows[0] as { n: number }).n });
  });

  it('an edit replaces the lines: one line left, the old ones kept deleted', async () => {
    const created = await create();
    const edit = await t.call('PUT', url(created.id), {
      body: prescription({
        version: 1,
        lines: [{ medicine: 'Ibuprofeno 400 mg', dose: '1 comprimido', frequency: 'cada 8 horas si hay dolor' }],
      }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data).toMatchObject({ verificationCode: created.verificationCode });
    expect(edit.json().data.lines).toHaveLength(1);
    const { rows } = await t.db.orm.execute(
      sql`select count(*)::int as n from prescription_lines where prescription_id = ${created.id} and deleted_at is not null`,
    );
    expect(rows[0]).toEqual({ n: 2 });
  });

  it('links an attendance of this patient only', async () => {
    const attendance = await t.call('POST', `/api/patients/${t.patientId}/attendances`, {
      body: {
        date: '2026-03-10T10:30:00-03:00',
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Control',
        billable: false,
      },
    });
    expect(attendance.statusCode, attendance.body).toBe(201);
    const attendanceId = attendance.json().data.id as string;
    const linked = await create(prescription({ attendanceId }));
    expect(linked.attendanceId).toBe(attendanceId);
    const sibling = await t.newPatient();
    const refused = await t.call('POST', url(undefined, sibling), { body: prescription({ attendanceId }) });
    expect(refused.json().details.fields).toEqual([{ path: 'attendanceId', code: 'invalid_value' }]);
  });

  it('lists newest first, paginated, and deletes softly (the PDF is then prescription_file_not_found)', async () => {
    const patient = await t.newPatient();
    const old = await create(prescription({ date: '2025-01-01' }), patient);
    const middle = await create(prescription({ date: '2025-06-01' }), patient);
    const recent = await create(prescription({ date: '2026-01-01' }), patient);
    const list = await t.call('GET', `${url(undefined, patient)}?page=1&pageSize=2`);
    expect(list.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(list.json().data.map((row: { id: string }) => row.id)).toEqual([recent.id, middle.id]);
    expect(list.json().data[0].lines).toHaveLength(2);
    const second = await t.call('GET', `${url(undefined, patient)}?page=2&pageSize=2`);
    expect(second.json().data.map((row: { id: string }) => row.id)).toEqual([old.id]);
    expect((await t.call('DELETE', url(old.id, patient))).json()).toEqual({ code: 'prescription_deleted' });
    expect((await t.call('GET', url(undefined, patient))).json()).toMatchObject({ total: 2 });
    expect((await t.call('GET', `${url(old.id, patient)}/pdf`)).json().code).toBe('prescription_file_not_found');
    expect((await t.call('GET', `${url(newId(), patient)}/pdf`)).json().code).toBe('prescription_file_not_found');
    const events = await t.auditEvents('prescription_deleted');
    expect(events.find((row) => row.entityId === old.id)?.before).toMatchObject({
      verificationCode: old.verificationCode,
      version: 1,
    });
  });

  it("prints the PDF in the patient's language with the medicine and the verification code", async () => {
    const english = await t.newPatient(t.clinic.token, {
      firstName: 'John',
      lastName: 'Smith',
      ssn: '28.111.222',
      language: 'en',
    });
    const created = await create(prescription(), english);
    const response = await t.call('GET', `${url(created.id, english)}/pdf`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="receta-Smith-2026-03-10-${created.verificationCode}.pdf"`,
    );
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfHas(pdf, 'Prescription — John Smith')).toBe(true);
    expect(pdfHas(pdf, created.verificationCode)).toBe(true);
    expect(pdfHas(pdf, `Amoxicilina 500 mg, Enjuague de clorhexidina 0,12 % · ${created.verificationCode}`)).toBe(true);
    const spanish = await t.newPatient(t.clinic.token, { firstName: 'Mónica', lastName: 'Ibáñez' });
    const inSpanish = await create(prescription(), spanish);
    const es = (await t.call('GET', `${url(inSpanish.id, spanish)}/pdf`)).rawPayload;
    expect(pdfHas(es, 'Receta — Mónica Ibáñez')).toBe(true);
    expect(pdfHas(es, 'Prescription — Mónica Ibáñez')).toBe(false);
    expect((await t.call('GET', `${url(created.id)}/pdf`)).json().code).toBe('prescription_file_not_found');
    expect((await t.call('GET', `${url(created.id, english)}/pdf`, { token: t.other.token })).statusCode).toBe(404);
  });

  it("answers an unexpected database failure with the action's code of spec §8, no SQL in the body", async () => {
    const created = await create();
    // Simulates a broken database for this one table (the superuser connection of the test).
    await t.db.orm.execute(sql`alter table prescription_lines rename to prescription_lines_away`);
    try {
      const answers = {
        error_create_prescription: await t.call('POST', url(), { body: prescription() }),
        error_get_prescription: await t.call('GET', url(created.id)),
        error_update_prescription: await t.call('PUT', url(created.id), { body: prescription({ version: 1 }) }),
        error_delete_prescription: await t.call('DELETE', url(created.id)),
      };
      for (const [code, answer] of Object.entries(answers)) {
        expect(answer.statusCode, code).toBe(500);
        expect(answer.json(), code).toEqual({ code, message: expect.any(String) });
        expect(answer.body).not.toContain('prescription_lines');
      }
    } finally {
      await t.db.orm.execute(sql`alter table prescription_lines_away rename to prescription_lines`);
    }
    // Nothing was half-written: the prescription is as it was.
    expect((await t.call('GET', url(created.id))).json().data).toMatchObject({ version: created.version });
  });

  it('lets each level that writes print and look up by code; a customer gets 403 there too', async () => {
    const created = await create();
    for (const level of ['supervisor', 'user'] as const) {
      await t.asLevel(level, async () => {
        expect((await t.call('GET', `${url(created.id)}/pdf`)).statusCode, level).toBe(200);
        expect((await t.call('GET', `/api/prescriptions/by-code/${created.verificationCode}`)).statusCode).toBe(200);
      });
    }
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', `${url(created.id)}/pdf`)).statusCode).toBe(403);
      expect((await t.call('GET', `/api/prescriptions/by-code/${created.verificationCode}`)).statusCode).toBe(403);
    });
    expect((await t.call('GET', url(created.id))).statusCode).toBe(200);
  });
});

import { type ToothStatus, toothStatuses, toothZones } from '@odontia/shared/enums';
import { statusScopes } from '@odontia/shared/odontogram';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setLevel } from '../../../test/clinics.ts';
import { expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** The odontogram: scopes, the chart at a date, void, batches, isolation, levels, audit (issue 6). */
describe.each(availableBackends())('odontogram on %s', (backend) => {
  const t = useTestClinic(backend);
  const base = (patientId: string) => `/api/patients/${patientId}/odontogram`;
  type Mark = { tooth: number; zone: string | null; status: string; notes?: string };
  async function chart(patientId: string, marks: Mark[], extra: Record<string, unknown> = {}) {
    return t.created<{ id: string; tooth: number; zone: string | null; status: string }[]>(
      `${base(patientId)}/entries`,
      { body: { marks, ...extra } },
    );
  }
  async function stateAt(patientId: string, at?: string) {
    const response = await t.call('GET', `${base(patientId)}${at ? `?at=${encodeURIComponent(at)}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      at: string;
      dates: string[];
      hasPrimary: boolean;
      teeth: { tooth: number; piece: { status: string } | null; zones: Record<string, { status: string }> }[];
    };
  }

  it('round-trips every status on its scope and every zone, with names and one audit row per batch', async () => {
    const patientId = await t.newPatient();
    const zoneStatuses = toothStatuses.filter((status) => statusScopes[status] !== 'piece' && status !== 'healthy');
    const pieceStatuses = toothStatuses.filter((status) => statusScopes[status] !== 'zone' && status !== 'healthy');
    // Each zone status on each of the five zones of its own tooth; each piece status on its own tooth.
    const upper = [11, 12, 13, 14, 15, 16, 17, 18, 21, 22, 23, 24, 25, 26, 27, 28];
    const lower = [51, 52, 31, 32, 33, 34, 35, 36, 37, 38, 41, 42, 43, 44, 45, 46];
    const marks: Mark[] = [
      ...zoneStatuses.flatMap((status, index) =>
        toothZones.map((zone) => ({ tooth: upper[index] as number, zone, status })),
      ),
      ...pieceStatuses.map((status, index) => ({ tooth: lower[index] as number, zone: null, status })),
    ];
    const saved = await chart(patientId, marks, { chartedAt: '2026-03-10T10:00:00-03:00' });
    expect(saved).toHaveLength(marks.length);
    expect(saved[0]).toMatchObject({ chartedAt: '2026-03-10T13:00:00.000Z', attendanceId: null, notes: null });
    expect((saved[0] as unknown as { professionalName: string }).professionalName).toMatch(/^Ana Pérez/);
    const state = await stateAt(patientId);
    for (const [index, status] of zoneStatuses.entries()) {
      const tooth = state.teeth.find((row) => row.tooth === upper[index]);
      for (const zone of toothZones) expect(tooth?.zones[zone]?.status, `${status} on ${zone}`).toBe(status);
    }
    for (const [index, status] of pieceStatuses.entries()) {
      expect(state.teeth.find((row) => row.tooth === lower[index])?.piece?.status).toBe(status);
    }
    expect(state.hasPrimary).toBe(true);
    expect(state.dates).toEqual(['2026-03-10T13:00:00.000Z']);
    const events = await t.auditEvents('odontogram_entries_saved');
    const mine = events.filter((event) => event.patientId === patientId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ entity: 'odontogram', userId: t.clinic.userId });
    expect((mine[0]?.after as { marks: unknown[] } | undefined)?.marks).toHaveLength(marks.length);
  });

  it('refuses the wrong scope, unknown teeth, zones and statuses, duplicates and the future with field codes', async () => {
    const patientId = await t.newPatient();
    const post = (body: object) => t.call('POST', `${base(patientId)}/entries`, { body });
    const crownOnZone = await post({ marks: [{ tooth: 11, zone: 'occlusal', status: 'crown' }] });
    expect(crownOnZone.statusCode).toBe(400);
    expect(crownOnZone.json().details.fields).toEqual([{ path: 'marks.0.zone', code: 'invalid_value' }]);
    const cariesOnPiece = await post({ marks: [{ tooth: 36, zone: null, status: 'caries' }] });
    expect(cariesOnPiece.json().details.fields).toEqual([{ path: 'marks.0.zone', code: 'invalid_value' }]);
    const bad = await post({
      marks: [
        { tooth: 19, zone: null, status: 'missing' },
        { tooth: 36, zone: 'apical', status: 'caries' },
        { tooth: 36, zone: 'mesial', status: 'broken' },
      ],
    });
    expectFieldErrors(bad, [
      { path: 'marks.0.tooth', code: 'invalid_value' },
      { path: 'marks.1.zone', code: 'invalid_value' },
      { path: 'marks.2.status', code: 'invalid_value' },
    ]);
    const twice = await post({
      marks: [
        { tooth: 36, zone: 'mesial', status: 'caries' },
        { tooth: 36, zone: 'mesial', status: 'filling' },
      ],
    });
    expect(twice.json().details.fields).toEqual([{ path: 'marks', code: 'invalid_value' }]);
    expect((await post({ marks: [] })).json().details.fields).toEqual([{ path: 'marks', code: 'required' }]);
    const future = await post({
      marks: [{ tooth: 11, zone: null, status: 'crown' }],
      chartedAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(future.json().details.fields).toEqual([{ path: 'chartedAt', code: 'date_in_future' }]);
    const stranger = await post({
      marks: [{ tooth: 11, zone: null, status: 'crown' }],
      professionalId: t.other.userId,
    });
    expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
    expect((await t.call('GET', `${base(patientId)}?at=yesterday`)).json().details.fields).toEqual([
      { path: 'querystring.at', code: 'invalid_date' },
    ]);
    // Nothing of these was written.
    expect((await t.call('GET', `${base(patientId)}/entries`)).json().total).toBe(0);
  });

  it('shows the chart as it was at a past date; healthy clears a zone, a healthy piece clears its zones', async () => {
    const patientId = await t.newPatient();
    await chart(patientId, [{ tooth: 36, zone: 'occlusal', status: 'caries' }], {
      chartedAt: '2026-01-10T12:00:00Z',
    });
    await chart(
      patientId,
      [
        { tooth: 36, zone: 'occlusal', status: 'filling' },
        { tooth: 11, zone: null, status: 'crown' },
        { tooth: 46, zone: 'distal', status: 'caries' },
      ],
      { chartedAt: '2026-02-10T12:00:00Z' },
    );
    await chart(
      patientId,
      [
        { tooth: 46, zone: null, status: 'healthy' },
        { tooth: 11, zone: null, status: 'healthy' },
      ],
      { chartedAt: '2026-03-10T12:00:00Z' },
    );
    const before = await stateAt(patientId, '2026-01-01T00:00:00Z');
    expect(before.teeth).toEqual([]);
    const january = await stateAt(patientId, '2026-01-20T00:00:00-03:00');
    expect(january.teeth).toEqual([
      expect.objectContaining({
        tooth: 36,
        piece: null,
        zones: { occlusal: expect.objectContaining({ status: 'caries' }) },
      }),
    ]);
    const february = await stateAt(patientId, '2026-02-10T12:00:00Z');
    expect(february.teeth.map((row) => [row.tooth, row.piece?.status ?? null, Object.keys(row.zones)])).toEqual([
      [11, 'crown', []],
      [36, null, ['occlusal']],
      [46, null, ['distal']],
    ]);
    expect(february.teeth.find((row) => row.tooth === 36)?.zones.occlusal?.status).toBe('filling');
    const now = await stateAt(patientId);
    expect(now.teeth.map((row) => row.tooth)).toEqual([36]);
    expect(now.dates).toEqual(['2026-01-10T12:00:00.000Z', '2026-02-10T12:00:00.000Z', '2026-03-10T12:00:00.000Z']);
    expect(now.hasPrimary).toBe(false);
  });

  it('lists the changes newest first with the attendance; refuses another patient’s attendance', async () => {
    const patientId = await t.newPatient();
    const siblingId = await t.newPatient();
    const attendance = await t.call('POST', `/api/patients/${patientId}/attendances`, {
      body: {
        date: '2026-03-01T10:00:00-03:00',
        professionalId: t.clinic.userId,
        attendanceType: 'dentistry',
        titleResume: 'Control odontológico',
      },
    });
    expect(attendance.statusCode, attendance.body).toBe(201);
    const attendanceId = attendance.json().data.id as string;
    await chart(patientId, [{ tooth: 21, zone: 'buccal', status: 'sealant' }], { chartedAt: '2026-02-01T10:00:00Z' });
    await chart(patientId, [{ tooth: 16, zone: null, status: 'root_canal', notes: 'Conducto único' }], {
      chartedAt: '2026-03-01T13:30:00Z',
      attendanceId,
    });
    const list = await t.call('GET', `${base(patientId)}/entries?page=1&pageSize=1`);
    expect(list.json()).toMatchObject({
      total: 2,
      page: 1,
      pageSize: 1,
      data: [
        {
          tooth: 16,
          status: 'root_canal',
          notes: 'Conducto único',
          attendanceId,
          attendanceTitle: 'Control odontológico',
        },
      ],
    });
    const wrong = await t.call('POST', `${base(siblingId)}/entries`, {
      body: {
        marks: [{ tooth: 16, zone: null, status: 'crown' }],
        attendanceId,
      },
    });
    expect(wrong.json().details.fields).toEqual([{ path: 'attendanceId', code: 'invalid_value' }]);
  });

  it('voids an entry with a reason: it leaves the chart and the list, the row stays, and the audit says why', async () => {
    const patientId = await t.newPatient();
    await chart(patientId, [{ tooth: 36, zone: 'occlusal', status: 'caries' }], { chartedAt: '2026-01-10T12:00:00Z' });
    const [filling] = await chart(patientId, [{ tooth: 36, zone: 'occlusal', status: 'filling' }], {
      chartedAt: '2026-02-10T12:00:00Z',
    });
    const url = `${base(patientId)}/entries/${filling?.id}`;
    const noReason = await t.call('DELETE', url, { body: { reason: ' ' } });
    expect(noReason.json().details.fields).toEqual([{ path: 'reason', code: 'required' }]);
    const voided = await t.call('DELETE', url, { body: { reason: 'Pieza equivocada' } });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toEqual({ code: 'odontogram_entry_voided' });
    // The caries charted before shows again; the voided instant leaves the timeline.
    const state = await stateAt(patientId);
    expect(state.teeth[0]?.zones.occlusal?.status).toBe('caries');
    expect(state.dates).toEqual(['2026-01-10T12:00:00.000Z']);
    expect((await t.call('GET', `${base(patientId)}/entries`)).json().total).toBe(1);
    expect((await t.call('DELETE', url, { body: { reason: 'Otra vez' } })).json().code).toBe('odontogram_not_found');
    const { rows } = await t.db.orm.execute(
      sql`select delete_reason, deleted_by from odontogram_entries where id = ${filling?.id}`,
    );
    expect(rows).toEqual([{ delete_reason: 'Pieza equivocada', deleted_by: t.clinic.userId }]);
    const events = await t.auditEvents('odontogram_entry_voided');
    expect(events.find((event) => event.entityId === filling?.id)).toMatchObject({
      entity: 'odontogram_entry',
      patientId,
      before: { tooth: 36, zone: 'occlusal', status: 'filling' },
      after: { voided: true, reason: 'Pieza equivocada' },
    });
  });

  it('writes a batch as a whole or not at all', async () => {
    const patientId = await t.newPatient();
    // Valid for the contract, refused by the database (the check on the tooth) in the middle of the batch.
    const response = await t.db
      .withTenant(t.clinic.accountId, async (tx) => {
        await tx.execute(
          sql`insert into odontogram_entries (account_id, id, patient_id, tooth, zone, status, charted_at, professional_id)
              values (${t.clinic.accountId}, ${newId()}, ${patientId}, 11, null, 'crown', now(), ${t.clinic.userId})`,
        );
        await tx.execute(
          sql`insert into odontogram_entries (account_id, id, patient_id, tooth, zone, status, charted_at, professional_id)
              values (${t.clinic.accountId}, ${newId()}, ${patientId}, 19, null, 'crown', now(), ${t.clinic.userId})`,
        );
      })
      .then(
        () => 'written',
        () => 'refused',
      );
    expect(response).toBe('refused');
    // Through the API: one bad mark refuses the batch, the good ones are not written either.
    const mixed = await t.call('POST', `${base(patientId)}/entries`, {
      body: {
        marks: [
          { tooth: 11, zone: null, status: 'crown' },
          { tooth: 12, zone: 'occlusal', status: 'implant' },
        ],
      },
    });
    expect(mixed.statusCode).toBe(400);
    expect((await t.call('GET', `${base(patientId)}/entries`)).json().total).toBe(0);
    expect((await stateAt(patientId)).teeth).toEqual([]);
  });

  it('prints the chart as a PDF in Spanish with the clinic, the patient and the legend', async () => {
    const patientId = await t.newPatient(t.clinic.token, { firstName: 'Mónica', lastName: 'Ibáñez' });
    await chart(
      patientId,
      [
        { tooth: 36, zone: 'occlusal', status: 'caries' },
        { tooth: 11, zone: null, status: 'crown' },
      ],
      { chartedAt: '2026-03-10T12:00:00Z' },
    );
    const response = await t.call('GET', `${base(patientId)}.pdf?at=2026-03-11T00:00:00Z`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(
      /^inline; filename="odontograma-Ibanez-2026-03-1[01]\.pdf"$/,
    );
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
    expect(pdf.includes(utf16('Odontograma — Mónica Ibáñez'))).toBe(true);
    // The chart's instant as the screens show it: the clinic's clock (Buenos Aires), 24-hour Spanish.
    // (pdfkit writes an ASCII-only info string as it is.)
    expect(pdf.includes(Buffer.from('(10/3/26, 21:00)', 'latin1'))).toBe(true);
    expect((await t.call('GET', `${base(patientId)}.pdf`, { token: t.other.token })).json().code).toBe(
      'odontogram_not_found',
    );
  });

  it("answers 404 odontogram_not_found for another clinic's patient or entry", async () => {
    const patientId = await t.newPatient();
    const [entry] = await chart(patientId, [{ tooth: 11, zone: null, status: 'crown' }]);
    const foreign = await t.newPatient(t.other.token);
    for (const response of [
      await t.call('GET', base(foreign)),
      await t.call('GET', `${base(foreign)}/entries`),
      await t.call('POST', `${base(foreign)}/entries`, {
        body: {
          marks: [{ tooth: 11, zone: null, status: 'crown' }],
        },
      }),
      await t.call('GET', base(patientId), { token: t.other.token }),
      await t.call('GET', base(newId())),
      await t.call('DELETE', `${base(patientId)}/entries/${entry?.id}`, {
        token: t.other.token,
        body: { reason: 'x' },
      }),
      await t.call('DELETE', `${base(patientId)}/entries/${newId()}`, { body: { reason: 'x' } }),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().code).toBe('odontogram_not_found');
    }
    // Another patient's entry, under this patient.
    const sibling = await t.newPatient();
    const wrong = await t.call('DELETE', `${base(sibling)}/entries/${entry?.id}`, { body: { reason: 'x' } });
    expect(wrong.json().code).toBe('odontogram_not_found');
  });

  it('lets every level but customer read and chart', async () => {
    const patientId = await t.newPatient();
    const mark = (status: ToothStatus) => ({ marks: [{ tooth: 26, zone: null, status }] });
    try {
      for (const level of ['administrator', 'supervisor', 'user'] as const) {
        await setLevel(t.db, t.clinic.userId, level);
        expect((await t.call('GET', base(patientId))).statusCode, level).toBe(200);
        const created = await t.call('POST', `${base(patientId)}/entries`, { body: mark('crown') });
        expect(created.statusCode, level).toBe(201);
        const id = created.json().data[0].id as string;
        expect(
          (await t.call('DELETE', `${base(patientId)}/entries/${id}`, { body: { reason: 'prueba' } })).statusCode,
        ).toBe(200);
      }
      await setLevel(t.db, t.clinic.userId, 'customer');
      expect((await t.call('GET', base(patientId))).statusCode).toBe(403);
      expect((await t.call('GET', `${base(patientId)}/entries`)).statusCode).toBe(403);
      expect((await t.call('GET', `${base(patientId)}.pdf`)).statusCode).toBe(403);
      expect((await t.call('POST', `${base(patientId)}/entries`, { body: mark('crown') })).statusCode).toBe(403);
      expect(
        (await t.call('DELETE', `${base(patientId)}/entries/${newId()}`, { body: { reason: 'x' } })).statusCode,
      ).toBe(403);
    } finally {
      await setLevel(t.db, t.clinic.userId, 'administrator');
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** GET /api/attendances/recent: the dashboard's "patients seen recently" (issue 16). */
describe.each(availableBackends())('recent attendances on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const created: { patientId: string; id: string; token?: string }[] = [];

  afterEach(async () => {
    for (const row of created.splice(0))
      await t.call('DELETE', `/api/patients/${row.patientId}/attendances/${row.id}`, { token: row.token });
  });

  async function attend(date: string, titleResume: string, patientId = t.patientId, token?: string, userId?: string) {
    const response = await t.call('POST', `/api/patients/${patientId}/attendances`, {
      token,
      body: {
        date,
        attendanceType: 'dentistry',
        professionalId: userId ?? t.clinic.userId,
        titleResume,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().data.id as string;
    created.push({ patientId, id, token });
    return id;
  }

  it("answers the clinic's latest attendances across patients, newest first, with names, limited", async () => {
    const second = await t.newPatient(undefined, { firstName: 'Lucía', lastName: 'Pérez' });
    const old = await attend('2026-03-01T10:00:00Z', 'Control');
    const newest = await attend('2026-03-05T10:00:00Z', 'Limpieza', second);
    const middle = await attend('2026-03-03T10:00:00Z', 'Obturación');

    const response = await t.call('GET', '/api/attendances/recent?limit=2');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as { id: string; patientName: string; professionalName: string; date: string }[];
    expect(data.map((row) => row.id)).toEqual([newest, middle]);
    expect(data[0]).toMatchObject({
      patientId: second,
      patientName: 'Lucía Pérez',
      titleResume: 'Limpieza',
      attendanceType: 'dentistry',
      date: '2026-03-05T10:00:00.000Z',
      professionalId: t.clinic.userId,
    });
    expect(data[0]?.professionalName).toBeTruthy();

    // A deleted attendance is left out.
    await t.call('DELETE', `/api/patients/${second}/attendances/${newest}`);
    const after = (await t.call('GET', '/api/attendances/recent')).json().data as { id: string }[];
    expect(after.map((row) => row.id)).toEqual([middle, old]);
  });

  it("never shows another clinic's attendances", async () => {
    const mine = await attend('2026-03-02T10:00:00Z', 'Mía');
    const otherPatient = await t.newPatient(t.other.token);
    const theirs = await attend('2026-03-09T10:00:00Z', 'Ajena', otherPatient, t.other.token, t.other.userId);
    const ids = ((await t.call('GET', '/api/attendances/recent')).json().data as { id: string }[]).map((r) => r.id);
    expect(ids).toEqual([mine]);
    const theirIds = (
      (await t.call('GET', '/api/attendances/recent', { token: t.other.token })).json().data as { id: string }[]
    ).map((r) => r.id);
    expect(theirIds).toEqual([theirs]);
  });

  it('refuses a limit over 20 and a level without patients.read', async () => {
    const tooMany = await t.call('GET', '/api/attendances/recent?limit=21');
    expect(tooMany.statusCode).toBe(400);
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/attendances/recent')).statusCode).toBe(403);
    });
  });
});

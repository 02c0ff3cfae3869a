import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLevel } from '../../../test/clinics.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** GET /api/professionals: who a clinical form may name as the record's professional. */
describe.each(availableBackends())('professionals on %s', (backend) => {
  const t = useTestClinic(backend);
  const list = (token = t.clinic.token) => t.call('GET', '/api/professionals', { token });

  async function addUser(accountId: string, completeName: string, level: string, active = true) {
    const id = newId();
    // A membership needs its person's sign-in (issue 19).
    await t.db.orm.execute(sql`insert into logins (id, email) values (${id}, ${`${id}@correo.test`})`);
    // A customer is a patient in the portal (issue 37): its membership names its patient.
    const patientId = level === 'customer' ? id : null;
    if (patientId)
      await t.db.orm.execute(sql`insert into patients (account_id, id, sku_patient, first_name, last_name, sex, birthdate)
        values (${accountId}, ${patientId}, ${`C-${id}`}, 'Diego', 'Cliente', 'male', '1990-01-01')`);
    await t.db.orm.execute(sql`
      insert into users (account_id, id, login_id, complete_name, email, level, patient_id, system_language, date_format,
        system_currency, active, license_number, specialty)
      values (${accountId}, ${id}, ${id}, ${completeName}, ${`${id}@correo.test`}, ${level}, ${patientId}, 'es', 'DD/MM/YYYY',
        'argentine_peso', ${active}, ${level === 'user' ? 'MN 12345' : null}, ${level === 'user' ? 'Ortodoncia' : null})`);
    return id;
  }

  beforeAll(async () => {
    await addUser(t.clinic.accountId, 'Bruno Alvarado', 'user');
    await addUser(t.clinic.accountId, 'Ana Zapata', 'supervisor');
    await addUser(t.clinic.accountId, 'Carla Inactiva', 'user', false);
    await addUser(t.clinic.accountId, 'Diego Cliente', 'customer');
    await addUser(t.other.accountId, 'Elena de otra clínica', 'user');
  });

  it("lists the clinic's active users who are not customers, by name, with licence and specialty", async () => {
    const response = await list();
    expect(response.statusCode, response.body).toBe(200);
    const names = response.json().data.map((row: { completeName: string }) => row.completeName);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(names).toContain('Ana Zapata');
    expect(names).not.toContain('Carla Inactiva');
    expect(names).not.toContain('Diego Cliente');
    expect(names).not.toContain('Elena de otra clínica');
    expect(response.json().data).toContainEqual({
      id: expect.any(String),
      completeName: 'Bruno Alvarado',
      licenseNumber: 'MN 12345',
      specialty: 'Ortodoncia',
    });
    expect(names).toHaveLength(3);
  });

  it('is readable by every clinical level; a customer gets 403', async () => {
    try {
      for (const level of ['supervisor', 'user'] as const) {
        await setLevel(t.db, t.clinic.userId, level);
        expect((await list()).statusCode).toBe(200);
      }
      await setLevel(t.db, t.clinic.userId, 'customer');
      expect((await list()).json().code).toBe('forbidden');
    } finally {
      await setLevel(t.db, t.clinic.userId, 'administrator');
    }
  });
});

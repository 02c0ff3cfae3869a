import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestClinic, setLevel, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** GET /api/professionals: who a clinical form may name as the record's professional. */
describe.each(availableBackends())('professionals on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let other: TestClinic;
  const mailer = new MemoryMailer();
  const list = (token = clinic.token) =>
    app.inject({ method: 'GET', url: '/api/professionals', headers: bearer(token) });

  async function addUser(accountId: string, completeName: string, level: string, active = true) {
    const id = newId();
    await testApp.db.orm.execute(sql`
      insert into users (account_id, id, complete_name, email, level, system_language, date_format, system_currency,
        active, license_number, specialty)
      values (${accountId}, ${id}, ${completeName}, ${`${id}@correo.test`}, ${level}, 'es', 'DD/MM/YYYY',
        'argentine_peso', ${active}, ${level === 'user' ? 'MN 12345' : null}, ${level === 'user' ? 'Ortodoncia' : null})`);
    return id;
  }

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    app = testApp.app;
    clinic = await createTestClinic(app, mailer);
    other = await createTestClinic(app, mailer);
    await addUser(clinic.accountId, 'Bruno Alvarado', 'user');
    await addUser(clinic.accountId, 'Ana Zapata', 'supervisor');
    await addUser(clinic.accountId, 'Carla Inactiva', 'user', false);
    await addUser(clinic.accountId, 'Diego Cliente', 'customer');
    await addUser(other.accountId, 'Elena de otra clínica', 'user');
  });
  afterAll(async () => {
    await testApp?.close();
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
        await setLevel(testApp.db, clinic.userId, level);
        expect((await list()).statusCode).toBe(200);
      }
      await setLevel(testApp.db, clinic.userId, 'customer');
      expect((await list()).json().code).toBe('forbidden');
    } finally {
      await setLevel(testApp.db, clinic.userId, 'administrator');
    }
  });
});

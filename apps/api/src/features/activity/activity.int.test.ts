import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { bearer, createTestClinic, setLevel, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** The top bar's activity stream (issue 14): the clinic's own audited changes, by what the level may read. */
describe.each(availableBackends())('activity on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let other: TestClinic;
  const mailer = new MemoryMailer();
  const activity = async (token: string, query = '') => {
    const response = await app.inject({ method: 'GET', url: `/api/activity${query}`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      action: string;
      patientName: string | null;
      itemName: string | null;
      userName: string | null;
    }[];
  };

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    app = testApp.app;
    clinic = await createTestClinic(app, mailer, { completeName: 'Ana Activa' });
    other = await createTestClinic(app, mailer);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('lists the newest changes first, with who did them and on which patient or item', async () => {
    await createTestPatient(app, clinic.token, { firstName: 'Mónica', lastName: 'Ibáñez' });
    const created = await app.inject({
      method: 'POST',
      url: '/api/medications',
      headers: bearer(clinic.token),
      payload: {
        name: 'Articaína 4%',
        costPrice: '100',
        basePrice: '150',
        taxRate: '21',
        minStock: 1,
        reorderStock: 2,
        totalStock: 5,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await createTestPatient(app, other.token, { firstName: 'Otra', lastName: 'Clínica' });

    const entries = await activity(clinic.token);
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'medication_created', itemName: 'Articaína 4%', userName: 'Ana Activa' },
      { action: 'patient_created', patientName: 'Ibáñez, Mónica', userName: 'Ana Activa' },
    ]);
    // Sign-ins are security records, not activity; another clinic's changes never show.
    expect(entries.map((entry) => entry.action)).not.toContain('sign_in');
    expect(entries.some((entry) => entry.patientName === 'Clínica, Otra')).toBe(false);
    expect(await activity(clinic.token, '?limit=1')).toHaveLength(1);
  });

  it('shows each level only what it may read', async () => {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(clinic.token),
      payload: { completeName: 'Recepción', email: `recepcion.${Date.now()}@clinica.test`, level: 'user' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await activity(clinic.token)).map((entry) => entry.action)).toContain('user_invited');

    await setLevel(testApp.db, clinic.userId, 'user');
    const asUser = (await activity(clinic.token)).map((entry) => entry.action);
    expect(asUser).toContain('patient_created');
    expect(asUser).not.toContain('user_invited');
    await setLevel(testApp.db, clinic.userId, 'customer');
    expect(await activity(clinic.token)).toEqual([]);
    await setLevel(testApp.db, clinic.userId, 'administrator');
  });

  it('refuses an absurd limit with a field error', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/activity?limit=0', headers: bearer(clinic.token) });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toContainEqual({ path: 'querystring.limit', code: 'too_small', min: 1 });
  });
});

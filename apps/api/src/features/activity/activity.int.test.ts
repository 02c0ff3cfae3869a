import { describe, expect, it } from 'vitest';
import { setLevel } from '../../../test/clinics.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** The top bar's activity stream (issue 14): the clinic's own audited changes, by what the level may read. */
describe.each(availableBackends())('activity on %s', (backend) => {
  const t = useTestClinic(backend, { clinic: { completeName: 'Ana Activa' } });
  const activity = async (token: string, query = '') => {
    const response = await t.call('GET', `/api/activity${query}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      action: string;
      patientName: string | null;
      itemName: string | null;
      userName: string | null;
    }[];
  };

  it('lists the newest changes first, with who did them and on which patient or item', async () => {
    await t.newPatient(t.clinic.token, { firstName: 'Mónica', lastName: 'Ibáñez' });
    const created = await t.call('POST', '/api/medications', {
      body: {
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
    await t.newPatient(t.other.token, { firstName: 'Otra', lastName: 'Clínica' });

    const entries = await activity(t.clinic.token);
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'medication_created', itemName: 'Articaína 4%', userName: 'Ana Activa' },
      { action: 'patient_created', patientName: 'Ibáñez, Mónica', userName: 'Ana Activa' },
    ]);
    // Sign-ins are security records, not activity; another clinic's changes never show.
    expect(entries.map((entry) => entry.action)).not.toContain('sign_in');
    expect(entries.some((entry) => entry.patientName === 'Clínica, Otra')).toBe(false);
    expect(await activity(t.clinic.token, '?limit=1')).toHaveLength(1);
  });

  it('shows each level only what it may read', async () => {
    const invited = await t.call('POST', '/api/users', {
      body: { completeName: 'Recepción', email: `recepcion.${Date.now()}@clinica.test`, level: 'user' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await activity(t.clinic.token)).map((entry) => entry.action)).toContain('user_invited');

    await setLevel(t.db, t.clinic.userId, 'user');
    const asUser = (await activity(t.clinic.token)).map((entry) => entry.action);
    expect(asUser).toContain('patient_created');
    expect(asUser).not.toContain('user_invited');
    await setLevel(t.db, t.clinic.userId, 'customer');
    expect(await activity(t.clinic.token)).toEqual([]);
    await setLevel(t.db, t.clinic.userId, 'administrator');
  });

  it('refuses an absurd limit with a field error', async () => {
    const response = await t.call('GET', '/api/activity?limit=0');
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toContainEqual({ path: 'querystring.limit', code: 'too_small', min: 1 });
  });
});

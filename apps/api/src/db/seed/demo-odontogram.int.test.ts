import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from '../../../test/clinics.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { demoPassword, demoUsers, seedDemoClinic } from './demo.ts';

describe('demo clinic odontograms', () => {
  let testApp: TestApp;
  let token: string;
  const get = async (url: string) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(response.statusCode, `${url} ${response.body}`).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    expect(await seedDemoClinic(testApp.db)).toBe('created');
    token = (await signIn(testApp.app, demoUsers[0].email, demoPassword)).token;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('charts the first two patients on their attendance days, so the timeline has stops', async () => {
    const patients = (await get('/api/patients?sort=skuPatient&pageSize=2')).data as { id: string }[];
    const first = patients[0]?.id;
    const chart = (await get(`/api/patients/${first}/odontogram`)).data;
    expect(chart.dates).toHaveLength(2);
    expect(chart.teeth.find((tooth: { tooth: number }) => tooth.tooth === 36).zones.occlusal.status).toBe('filling');
    const before = (await get(`/api/patients/${first}/odontogram?at=${encodeURIComponent(chart.dates[0])}`)).data;
    expect(before.teeth.find((tooth: { tooth: number }) => tooth.tooth === 36).zones.occlusal.status).toBe('caries');
    const entries = await get(`/api/patients/${first}/odontogram/entries?pageSize=1`);
    expect(entries.data[0]).toMatchObject({ tooth: 36, attendanceTitle: 'Obturación pieza 36' });
    const second = (await get(`/api/patients/${patients[1]?.id}/odontogram`)).data;
    expect(second.teeth.find((tooth: { tooth: number }) => tooth.tooth === 46).piece.status).toBe('root_canal');
  });
});

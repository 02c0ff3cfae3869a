import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestClinic } from '../../test/clinics.ts';
import { MemoryMailer } from '../../test/mail.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { stockLedgerMismatches } from '../../test/supplies.ts';
import { type TestAppOptions, useAppPerTest } from '../../test/test-app.ts';
import {
  demoPassword,
  demoPortalPassword,
  demoPortalPatients,
  demoUsers,
  seedDemoAtStartup,
  seedDemoClinic,
} from './demo.ts';
import { startDemoMessaging } from './demo-messaging.ts';

describe('demo clinic', () => {
  const startApp = useAppPerTest();

  /** A new app with the demo clinic seeded, `user` signed in, and a GET as them (200 expected). */
  async function seededAs(user: (typeof demoUsers)[number], options?: TestAppOptions) {
    const app = await startApp(options);
    expect(await seedDemoClinic(app.db, { dataDir: app.env.DATA_DIR })).toBe('created');
    const signIn = await app.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: user.email, password: demoPassword },
    });
    const headers = { authorization: `Bearer ${signIn.json().data.token}` };
    const get = async (url: string) => {
      const response = await app.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(200);
      return response.json();
    };
    return { app, headers, get };
  }

  it('is created on an empty database; its three users sign in with their levels', async () => {
    const testApp = await startApp();
    expect(await seedDemoClinic(testApp.db, { dataDir: testApp.env.DATA_DIR })).toBe('created');
    for (const user of demoUsers) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: user.email, password: demoPassword },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.user).toMatchObject({
        level: user.level,
        account: { clinicName: 'Clínica Dental Sonrisa' },
        settings: { systemCurrency: 'argentine_peso', systemLanguage: 'es' },
      });
    }
    expect(await seedDemoClinic(testApp.db, { dataDir: testApp.env.DATA_DIR })).toBe('exists');
    const { rows } = await testApp.db.orm.execute<{ n: number }>(sql`select count(*)::int as n from accounts`);
    expect(rows[0]?.n).toBe(1);
  });

  it('has two patients in the portal at /p/sonrisa, each seeing only their own data (issue 37)', async () => {
    const testApp = await startApp();
    expect(await seedDemoClinic(testApp.db, { dataDir: testApp.env.DATA_DIR })).toBe('created');
    const clinic = await testApp.app.inject({ method: 'GET', url: '/api/public/clinics/sonrisa' });
    expect(clinic.json().data).toMatchObject({ name: 'Clínica Dental Sonrisa', slug: 'sonrisa' });
    const seen: string[] = [];
    for (const email of demoPortalPatients) {
      const signIn = await testApp.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email, password: demoPortalPassword },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      expect(signIn.json().data.user.level).toBe('customer');
      const headers = { authorization: `Bearer ${signIn.json().data.token}` };
      const me = await testApp.app.inject({ method: 'GET', url: '/api/portal/me', headers });
      expect(me.statusCode, me.body).toBe(200);
      seen.push(me.json().data.patient.id);
      for (const url of ['/api/portal/appointments', '/api/portal/documents', '/api/portal/balance']) {
        const answer = await testApp.app.inject({ method: 'GET', url, headers });
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      }
    }
    expect(new Set(seen).size).toBe(2);
  });

  it('has an active contract on the basic plan with five months of renewals and payments (issue 19)', async () => {
    const { app, headers } = await seededAs(demoUsers[0], {
      env: {
        PLANS: JSON.stringify([
          { id: 'basic', name: 'Básico', price: '45000', currency: 'argentine_peso', limits: { professionals: 5 } },
        ]),
      },
    });
    const account = (await app.app.inject({ method: 'GET', url: '/api/account', headers })).json().data;
    expect(account).toMatchObject({ planId: 'basic', plan: { name: 'Básico' }, usage: { professionals: 3 } });
    expect(account.contract.state).toBe('active');
    expect(account.contract.pendingRenewal).toBeNull();
    const days = (Date.parse(account.contract.endsAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(18);
    expect(days).toBeLessThan(23);
    const movements = (
      await app.app.inject({ method: 'GET', url: '/api/account/movements?pageSize=20', headers })
    ).json();
    expect(movements.total).toBe(10);
    expect(new Set(movements.data.map((row: { kind: string }) => row.kind))).toEqual(
      new Set(['renewal_order', 'payment']),
    );
    // The periods follow one another up to the due date.
    const orders = movements.data.filter((row: { kind: string }) => row.kind === 'renewal_order');
    expect(orders[0].periodEnd).toBe(account.contract.dueDate);
    // Billed to the clinic's fiscal data: its CUIT printed formatted, in Spanish.
    const pdf = await app.app.inject({ method: 'GET', url: `/api/account/movements/${orders[0].id}/pdf`, headers });
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Orden de renovación');
    expect(text).toMatch(/CUIT:\s+\d{2}-\d{8}-\d/);
    expect(text).toContain('Pagado');
  });

  it('has a pharmacy and supplies with stock histories, some to reorder and one critical', async () => {
    const { app, get } = await seededAs(demoUsers[1]);
    const medicines = await get('/api/medications?pageSize=100');
    const supplies = await get('/api/supplies?pageSize=100');
    expect(medicines.total).toBeGreaterThanOrEqual(10);
    expect(supplies.total).toBeGreaterThanOrEqual(12);
    const approvals = medicines.data.map((item: { approvalStatus: string }) => item.approvalStatus);
    expect(approvals).toEqual(expect.arrayContaining(['approved', 'underReview', 'suspended']));
    expect((await get('/api/medications?q=lidocaina')).data[0].name).toMatch(/^Lidocaína 2%/);
    const reorder = await get('/api/inventory/reorder?pageSize=100');
    expect(reorder.total).toBeGreaterThanOrEqual(3);
    expect(reorder.data[0].stockLevel).toBe('critical');
    expect(new Set(reorder.data.map((item: { kind: string }) => item.kind))).toEqual(new Set(['medication', 'supply']));
    const lidocaine = medicines.data.find((item: { sku: string }) => item.sku === 'MED-LIDO-2E');
    const history = await get(`/api/medications/${lidocaine.id}/stock-movements`);
    expect(history.data.map((movement: { kind: string }) => movement.kind)).toEqual(
      expect.arrayContaining(['initial', 'purchase', 'consumption']),
    );
    expect(await stockLedgerMismatches(app.db)).toEqual([]);
  });

  it('has about thirty patients numbered by the counter, searchable, a few inactive and some with alerts', async () => {
    const { app, headers, get } = await seededAs(demoUsers[2]);
    const all = await get('/api/patients?pageSize=100&sort=skuPatient');
    expect(all.total).toBe(30);
    expect(all.data[0].skuPatient).toBe('P-000001');
    expect(all.data.at(-1).skuPatient).toBe('P-000030');
    const ages = all.data.map((patient: { age: number }) => patient.age);
    expect(Math.min(...ages)).toBeLessThan(12);
    expect(Math.max(...ages)).toBeGreaterThan(75);
    expect((await get('/api/patients?active=false')).total).toBeGreaterThanOrEqual(2);
    const alerts = all.data.filter((patient: { allergies: string | null; chronicConditions: string | null }) =>
      Boolean(patient.allergies || patient.chronicConditions),
    );
    expect(alerts.length).toBeGreaterThanOrEqual(4);
    const found = await get('/api/patients?q=gonz%20mar');
    expect(found.data[0]).toMatchObject({ firstName: 'María', lastName: 'González', allergies: 'Penicilina' });
    expect((await get('/api/patients?q=nunez')).total).toBeGreaterThanOrEqual(2);
    const history = await get(`/api/patients/${found.data[0].id}/changes`);
    expect(history).toMatchObject({ total: 1, data: [{ action: 'patient_created' }] });
    // The next patient continues the clinic's numbering.
    const created = await app.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers,
      payload: { firstName: 'Nuevo', lastName: 'Paciente', sex: 'male', birthdate: '2000-01-01' },
    });
    expect(created.json().data.skuPatient).toBe('P-000031');
  });

  it('has opening hours with a lunch recess, a professional with a week of their own, chairs, treatments and a holiday', async () => {
    const { get } = await seededAs(demoUsers[2]);
    const weeks = await get('/api/schedules');
    expect(weeks.clinic.ranges).toHaveLength(6);
    expect(weeks.clinic.ranges[0]).toEqual({
      weekday: 'monday',
      opening: '09:00',
      closing: '20:00',
      recessStart: '14:00',
      recessEnd: '15:00',
    });
    const own = weeks.professionals.filter((row: { ranges: unknown[] }) => row.ranges.length > 0);
    expect(own.map((row: { professionalName: string }) => row.professionalName)).toEqual(['Martín Sosa']);
    const chairs = await get('/api/chairs');
    expect(chairs.data.map((row: { name: string }) => row.name)).toEqual(['Sillón 1', 'Sillón 2']);
    const treatments = await get('/api/treatments?pageSize=100');
    // The agenda's eight and the rest of the price list (demo-sales.ts).
    expect(treatments.total).toBe(21);
    const holidays = await get('/api/schedule-exceptions');
    expect(holidays.data).toMatchObject([{ kind: 'holiday', allDay: true, reason: 'Navidad', professionalId: null }]);
    expect((await get('/api/schedules/reminders')).data.address).toContain('Santa Fe');
  });

  it('has three patients with an e-mail waiting for a freed time (issue 38)', async () => {
    const { get } = await seededAs(demoUsers[2]);
    const waiting = await get('/api/waiting-list');
    expect(waiting.total).toBe(3);
    expect(waiting.data.map((row: { treatmentName: string }) => row.treatmentName).sort()).toEqual([
      'Blanqueamiento',
      'Limpieza',
      'Revisión',
    ]);
    expect(waiting.data.every((row: { patientHasEmail: boolean }) => row.patientHasEmail)).toBe(true);
  });

  it('reminds by WhatsApp, then SMS, then e-mail, through the local fake provider; a reply waits in the inbox (issue 38)', async () => {
    const { app, get } = await seededAs(demoUsers[0]);
    const settings = (await get('/api/settings/messaging')).data;
    expect(settings.reminderChannels).toEqual(['whatsapp', 'sms', 'email']);
    expect(
      settings.channels.map((row: { channel: string; hasSecret: boolean }) => [row.channel, row.hasSecret]),
    ).toEqual(
      expect.arrayContaining([
        ['sms', true],
        ['whatsapp', true],
      ]),
    );
    const inbox = await get('/api/inbox');
    expect(inbox.open).toBe(1);
    expect(inbox.data[0]).toMatchObject({ intent: 'unknown', channel: 'whatsapp' });
    const log = await get('/api/messages');
    expect(log.data.map((row: { status: string }) => row.status).sort()).toEqual(['delivered', 'failed', 'read']);
    // The demo's provider starts with the server and the clinic's accounts point at it.
    const fake = await startDemoMessaging(app.db, {
      port: 0,
      publicUrl: app.env.PUBLIC_URL,
      secretsKey: undefined,
      dataDir: app.env.DATA_DIR,
    });
    try {
      const after = (await get('/api/settings/messaging')).data.channels as { channel: string; apiUrl: string }[];
      expect(after.find((row) => row.channel === 'whatsapp')?.apiUrl).toBe(`${fake?.url}/v21.0`);
    } finally {
      await fake?.stop();
    }
  });

  it('never runs on a database that already has a clinic', async () => {
    const mailer = new MemoryMailer();
    const testApp = await startApp({ mailer });
    await createTestClinic(testApp.app, mailer);
    expect(await seedDemoAtStartup(testApp.db, true, testApp.app.log, testApp.env.DATA_DIR)).toBe('skipped');
    const { rows } = await testApp.db.orm.execute(sql`select 1 from users where email like '%@sonrisa.demo'`);
    expect(rows).toEqual([]);
  });

  it('is on by default only for the embedded database, and SEED_DEMO=false turns it off', async () => {
    const testApp = await startApp();
    expect(await seedDemoAtStartup(testApp.db, false, testApp.app.log, testApp.env.DATA_DIR)).toBe('skipped');
    expect(await seedDemoAtStartup(testApp.db, undefined, testApp.app.log, testApp.env.DATA_DIR)).toBe(
      testApp.db.kind === 'pglite' ? 'created' : 'skipped',
    );
  });
});

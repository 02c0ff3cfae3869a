import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { demoPassword, demoUsers, seedDemoAtStartup, seedDemoClinic } from './demo.ts';

describe('demo clinic', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it('is created on an empty database; its three users sign in with their levels', async () => {
    testApp = await createTestApp();
    expect(await seedDemoClinic(testApp.db)).toBe('created');
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
    expect(await seedDemoClinic(testApp.db)).toBe('exists');
    const { rows } = await testApp.db.orm.execute<{ n: number }>(sql`select count(*)::int as n from accounts`);
    expect(rows[0]?.n).toBe(1);
  });

  it('never runs on a database that already has a clinic', async () => {
    const mailer = new MemoryMailer();
    testApp = await createTestApp({ mailer });
    await createTestClinic(testApp.app, mailer);
    expect(await seedDemoAtStartup(testApp.db, true, testApp.app.log)).toBe('skipped');
    const { rows } = await testApp.db.orm.execute(sql`select 1 from users where email like '%@sonrisa.demo'`);
    expect(rows).toEqual([]);
  });

  it('is on by default only for the embedded database, and SEED_DEMO=false turns it off', async () => {
    testApp = await createTestApp();
    expect(await seedDemoAtStartup(testApp.db, false, testApp.app.log)).toBe('skipped');
    expect(await seedDemoAtStartup(testApp.db, undefined, testApp.app.log)).toBe(
      testApp.db.kind === 'pglite' ? 'created' : 'skipped',
    );
  });
});

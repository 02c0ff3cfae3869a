import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { createTestClinic, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer, type Smtp, startSmtp, stopSmtp } from '../../../test/mail.ts';
import {
  appointmentRow,
  bookAppointment,
  hoursFromNow,
  linksOf,
  makeJobsDue,
  reminderJobs,
} from '../../../test/reminders.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { createMailer, type MailMessage } from '../../lib/mail.ts';

/**
 * The reminder through a real SMTP server (issue 16): an in-process server that refuses the first
 * attempt (retry), and two app instances — two pools, two workers — on one PostgreSQL database that
 * must send each reminder exactly once.
 */

/** The app's SMTP mailer that also remembers what it sent (the sign-up's activation token). */
function teeMailer(smtpUrl: string, memory: MemoryMailer, app: () => FastifyInstance) {
  let real: ReturnType<typeof createMailer> | undefined;
  return {
    async send(message: MailMessage) {
      real ??= createMailer({
        smtpUrl,
        outboxDir: '/nonexistent',
        from: 'Odontia <no-reply@odontia.test>',
        log: app().log,
      });
      await real.send(message);
      await memory.send(message);
    },
  };
}

const reminders = (smtp: Smtp) => smtp.received.filter((mail) => /Subject: .*Recordatorio/.test(mail.raw));

describe('reminder retried after an SMTP failure', () => {
  let smtp: Smtp;
  let testApp: TestApp;
  let clinic: TestClinic;
  const memory = new MemoryMailer();

  beforeAll(async () => {
    smtp = await startSmtp();
    testApp = await createTestApp({ mailer: teeMailer(smtp.url, memory, () => testApp.app) });
    clinic = await createTestClinic(testApp.app, memory);
  });
  afterAll(async () => {
    await testApp?.close();
    await stopSmtp(smtp);
  });

  it('the server refuses the first attempt: sent on the retry, attempts = 2, one message', async () => {
    const patientId = await createTestPatient(testApp.app, clinic.token, { email: 'reintento@correo.test' });
    const id = await bookAppointment(testApp.db, {
      accountId: clinic.accountId,
      patientId,
      professionalId: clinic.userId,
      startsAt: hoursFromNow(5),
    });
    smtp.refuseNext = 1;
    await testApp.app.jobs.runDue();
    const [waiting] = await reminderJobs(testApp.db, clinic.accountId, id);
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
    expect(reminders(smtp)).toHaveLength(0);
    await makeJobsDue(testApp.db, clinic.accountId);
    await testApp.app.jobs.runDue();
    const [job] = await reminderJobs(testApp.db, clinic.accountId, id);
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
    expect(reminders(smtp)).toHaveLength(1);
    expect(reminders(smtp)[0]?.to).toEqual(['reintento@correo.test']);
    expect((await appointmentRow(testApp.db, clinic.accountId, id)).reminderState).toBe('sent');
  });
});

describe.runIf(process.env.DATABASE_URL)('two app instances on one PostgreSQL database', () => {
  let smtp: Smtp;
  let first: TestApp;
  let secondDb: Database;
  let second: FastifyInstance;
  let clinic: TestClinic;
  const memory = new MemoryMailer();
  const secondMemory = new MemoryMailer();

  beforeAll(async () => {
    smtp = await startSmtp();
    const env = { JOBS_ENABLED: 'true', JOBS_POLL_MS: '50' };
    first = await createTestApp({ backend: 'postgres', env, mailer: teeMailer(smtp.url, memory, () => first.app) });
    // The second instance: its own pool and worker on the same database.
    const name = (await first.db.orm.execute<{ name: string }>(sql`select current_database() as name`)).rows[0]?.name;
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = `/${name}`;
    secondDb = await openDatabase({ databaseUrl: url.toString(), poolMax: 5 });
    second = await buildApp({ env: first.env, db: secondDb, mailer: teeMailer(smtp.url, secondMemory, () => second) });
    await second.ready();
    clinic = await createTestClinic(first.app, memory);
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await first?.close();
    await stopSmtp(smtp);
  });

  it('many due reminders: each is sent exactly once', async () => {
    const count = 40;
    const patients = await Promise.all(
      [1, 2, 3, 4].map((n) => createTestPatient(first.app, clinic.token, { email: `doble.${n}@correo.test` })),
    );
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      ids.push(
        await bookAppointment(first.db, {
          accountId: clinic.accountId,
          patientId: patients[index % patients.length] ?? '',
          professionalId: clinic.userId,
          startsAt: new Date(hoursFromNow(3).getTime() + index * 30 * 60_000),
        }),
      );
    }
    // Both workers poll; both are also pushed by hand at the same time.
    const deadline = Date.now() + 30_000;
    while (reminders(smtp).length < count && Date.now() < deadline) {
      await Promise.all([first.app.jobs.runDue(), second.jobs.runDue(), first.app.jobs.runDue(), second.jobs.runDue()]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // a late duplicate would show here
    expect(reminders(smtp)).toHaveLength(count);
    for (const id of ids) {
      const jobs = await reminderJobs(first.db, clinic.accountId, id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ state: 'done', attempts: 1 });
      expect(await linksOf(first.db, clinic.accountId, id)).toHaveLength(2);
      expect((await appointmentRow(first.db, clinic.accountId, id)).reminderState).toBe('sent');
    }
    // What each instance sent adds up to one per appointment.
    const sentBy = (mailer: MemoryMailer) => mailer.sent.filter((mail) => mail.subject.includes('Recordatorio')).length;
    expect(sentBy(memory) + sentBy(secondMemory)).toBe(count);
  });
});

import { and, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { accounts, appointmentLinks, appointments, jobs } from '../src/db/schema/index.ts';
import { planReminder, reminderJobKind } from '../src/features/reminders/reminder-plan.ts';
import { newId } from '../src/lib/ids.ts';

/** Appointments written straight to the table, planned as the appointments service would (issue 16). */

export async function setClinicContact(db: Database, accountId: string, contact: { address: string; phone: string }) {
  await db.withTenant(accountId, (tx) => tx.update(accounts).set(contact).where(eq(accounts.id, accountId)));
}

export async function bookAppointment(
  db: Database,
  input: {
    accountId: string;
    patientId: string;
    professionalId: string;
    startsAt: Date;
    minutes?: number;
    plan?: boolean;
  },
): Promise<string> {
  const id = newId();
  await db.withTenant(input.accountId, async (tx) => {
    await tx.insert(appointments).values({
      accountId: input.accountId,
      id,
      patientId: input.patientId,
      professionalId: input.professionalId,
      startsAt: input.startsAt,
      endsAt: new Date(input.startsAt.getTime() + (input.minutes ?? 30) * 60_000),
      timeZone: 'Europe/Madrid',
      createdBy: input.professionalId,
      updatedBy: input.professionalId,
    });
    if (input.plan !== false) {
      await planReminder({ tx, accountId: input.accountId }, { id, startsAt: input.startsAt, patientHasEmail: true });
    }
  });
  return id;
}

export async function appointmentRow(db: Database, accountId: string, id: string) {
  const [row] = await db.withTenant(accountId, (tx) =>
    tx
      .select()
      .from(appointments)
      .where(and(eq(appointments.accountId, accountId), eq(appointments.id, id))),
  );
  if (!row) throw new Error(`no appointment ${id}`);
  return row;
}

export async function reminderJobs(db: Database, accountId: string, appointmentId: string) {
  return db.withTenant(accountId, (tx) =>
    tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.accountId, accountId), eq(jobs.kind, reminderJobKind), eq(jobs.key, appointmentId)))
      .orderBy(jobs.createdAt),
  );
}

/** Makes the clinic's queued jobs due now (a retry's backoff, without waiting). */
export async function makeJobsDue(db: Database, accountId: string) {
  await db.withTenant(accountId, (tx) =>
    tx
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.accountId, accountId), eq(jobs.state, 'queued'))),
  );
}

export async function linksOf(db: Database, accountId: string, appointmentId: string) {
  return db.withTenant(accountId, (tx) =>
    tx
      .select()
      .from(appointmentLinks)
      .where(and(eq(appointmentLinks.accountId, accountId), eq(appointmentLinks.appointmentId, appointmentId))),
  );
}

/** The token of a mailed link of this purpose (the text holds both links). */
export function tokenIn(text: string, purpose: 'confirm' | 'cancel'): string {
  const match = new RegExp(`/appointment/${purpose}/([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${purpose} link in the mail`);
  return match[1];
}

export const hoursFromNow = (hours: number) => {
  const at = new Date(Date.now() + hours * 3600_000);
  at.setUTCSeconds(0, 0);
  return at;
};

import type { AppointmentLink } from '@odontia/shared/schemas/appointments';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { clinicBrand } from '../../db/clinic-brand.ts';
import { appointmentLinks, appointments } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken } from '../../lib/tokens.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { slotFreed } from '../freed-slots.ts';
import { recallsService } from '../recalls/recalls.service.ts';
import { recordWebhookEvent } from '../webhooks/webhook-events.ts';
import { loadReminder } from './reminder.job.ts';
import { dropReminder } from './reminder-plan.ts';

/**
 * The reminder's public links (issue 16): no session, the token is the only key. Its hash finds
 * the clinic in the system context (the one look-up across clinics), then everything happens in
 * that clinic's transaction with the appointment locked, so a link acts on its own appointment only
 * and two clicks at once answer once.
 */

type StaleReason = NonNullable<AppointmentLink['stale']>;

interface Found {
  accountId: string;
  linkId: string;
  appointmentId: string;
  purpose: 'confirm' | 'cancel';
  usedAt: Date | null;
  expiresAt: Date;
}

async function findLink(db: Database, token: string): Promise<Found> {
  const found = await db.withSystem(async (tx) => {
    const [row] = await tx
      .select({
        accountId: appointmentLinks.accountId,
        linkId: appointmentLinks.id,
        appointmentId: appointmentLinks.appointmentId,
        purpose: appointmentLinks.purpose,
        usedAt: appointmentLinks.usedAt,
        expiresAt: appointmentLinks.expiresAt,
      })
      .from(appointmentLinks)
      .where(eq(appointmentLinks.tokenHash, hashToken(token)));
    return row;
  });
  if (!found) throw new AppError('invalid_token');
  return { ...found, purpose: found.purpose === 'cancel' ? 'cancel' : 'confirm' };
}

async function readLink(tx: TenantTx, link: Found, now: Date) {
  const appointment = await loadReminder({ tx, accountId: link.accountId }, link.appointmentId);
  if (!appointment) throw new AppError('invalid_token');
  const [used] = await tx
    .select({ usedAt: appointmentLinks.usedAt, confirmedAt: appointments.confirmedAt })
    .from(appointmentLinks)
    .innerJoin(
      appointments,
      and(eq(appointments.accountId, appointmentLinks.accountId), eq(appointments.id, appointmentLinks.appointmentId)),
    )
    .where(and(eq(appointmentLinks.accountId, link.accountId), eq(appointmentLinks.id, link.linkId)));
  const stale: StaleReason | null =
    appointment.deletedAt !== null || appointment.status === 'cancelled'
      ? 'cancelled'
      : appointment.status === 'rescheduled'
        ? 'rescheduled'
        : appointment.status === 'completed'
          ? 'completed'
          : used?.usedAt
            ? 'answered'
            : appointment.startsAt.getTime() <= now.getTime() || link.expiresAt.getTime() <= now.getTime()
              ? 'past'
              : null;
  const data: AppointmentLink = {
    purpose: link.purpose,
    clinicName: appointment.clinicName,
    clinicBrand: clinicBrand(appointment),
    clinicAddress: appointment.clinicAddress,
    clinicPhone: appointment.clinicPhone,
    patientFirstName: appointment.firstName,
    professionalName: appointment.professionalName,
    startsAt: appointment.startsAt.toISOString(),
    endsAt: appointment.endsAt.toISOString(),
    timeZone: appointment.timeZone,
    language: languageOf(appointment.language),
    status: appointment.status as AppointmentLink['status'],
    confirmedAt: used?.confirmedAt?.toISOString() ?? null,
    stale,
  };
  return { data, appointment };
}

/**
 * The patient confirms or cancels their appointment (the caller locked it and checked it may): a
 * reminder's link (`reminder_link`, no user) or the patient portal (`online`, the patient's user,
 * issue 37). A cancellation leaves the active set at once, so the slot is free for the next booking.
 */
export async function applyPatientAnswer(
  tx: TenantTx,
  answer: {
    accountId: string;
    appointmentId: string;
    patientId: string;
    status: string;
    purpose: 'confirm' | 'cancel';
    /** A reply to an SMS or WhatsApp reminder (issue 38) is the patient's answer too. */
    channel: 'reminder_link' | 'online' | 'sms' | 'whatsapp';
    userId: string | null;
    ip: string;
    now: Date;
  },
): Promise<void> {
  const { accountId, appointmentId, now, channel } = answer;
  const where = and(eq(appointments.accountId, accountId), eq(appointments.id, appointmentId));
  const common = { version: sql`${appointments.version} + 1`, updatedAt: sql`now()`, updatedBy: answer.userId };
  let after: Record<string, unknown>;
  if (answer.purpose === 'confirm') {
    await tx
      .update(appointments)
      .set({ ...common, confirmedAt: now, confirmationChannel: channel, confirmedBy: null, reminderState: 'confirmed' })
      .where(where);
    after = { status: 'scheduled', confirmedAt: now.toISOString(), confirmationChannel: channel };
  } else {
    const [freed] = await tx
      .update(appointments)
      .set({
        ...common,
        status: 'cancelled',
        cancelReason: 'patient_request',
        cancelledBy: null,
        cancelledAt: now,
        reminderState: 'cancelled_by_patient',
      })
      .where(where)
      .returning({
        professionalId: appointments.professionalId,
        startsAt: appointments.startsAt,
        endsAt: appointments.endsAt,
      });
    await dropReminder({ tx, accountId }, appointmentId);
    // A recall booked with it is open again (issue 38).
    await recallsService.appointmentLeft(
      { tx, accountId, userId: answer.userId, ip: answer.ip },
      { id: appointmentId, why: 'appointment_cancelled' },
      now,
    );
    // The freed time is offered to the waiting list (issue 38), in this transaction.
    if (freed) {
      await slotFreed(
        { tx, accountId, userId: answer.userId, ip: answer.ip },
        { professionalId: freed.professionalId, start: freed.startsAt, end: freed.endsAt },
        now,
      );
    }
    // Issue 42: integrators hear of it as of a cancellation at the front desk.
    if (freed) {
      await recordWebhookEvent({ tx, accountId }, 'appointment.cancelled', {
        appointmentId,
        patientId: answer.patientId,
        professionalId: freed.professionalId,
        startsAt: freed.startsAt.toISOString(),
        endsAt: freed.endsAt.toISOString(),
        status: 'cancelled',
        reason: 'patient_request',
        cancelledAt: now.toISOString(),
      });
    }
    after = { status: 'cancelled', cancelReason: 'patient_request', channel };
  }
  const action = answer.purpose === 'confirm' ? 'appointment_confirmed' : 'appointment_cancelled';
  await recordAuditEvent(tx, {
    accountId,
    userId: answer.userId,
    patientId: answer.patientId,
    action: channel === 'online' ? `${action}_online` : action,
    entity: 'appointment',
    entityId: appointmentId,
    before: { status: answer.status },
    after,
    ip: answer.ip,
  });
}

export function createAppointmentLinksService(db: Database) {
  return {
    /** What the public page shows, `stale` saying why the link no longer acts. */
    async show(token: string, now = new Date()): Promise<{ data: AppointmentLink }> {
      const link = await findLink(db, token);
      return db.withTenant(link.accountId, async (tx) => ({ data: (await readLink(tx, link, now)).data }));
    },

    /** The patient's answer: confirms or cancels, once; a stale link changes nothing (409). */
    async answer(token: string, ip: string, now = new Date()) {
      const link = await findLink(db, token);
      return db.withTenant(link.accountId, async (tx) => {
        const { data, appointment } = await readLink(tx, link, now);
        if (data.stale) throw new AppError('appointment_link_stale', { why: data.stale });
        await applyPatientAnswer(tx, {
          accountId: link.accountId,
          appointmentId: link.appointmentId,
          patientId: appointment.patientId,
          status: appointment.status,
          purpose: link.purpose,
          channel: 'reminder_link',
          userId: null,
          ip,
          now,
        });
        await tx
          .update(appointmentLinks)
          .set({ usedAt: now })
          .where(and(eq(appointmentLinks.accountId, link.accountId), eq(appointmentLinks.id, link.linkId)));
        const answered = await readLink(tx, link, now);
        return {
          data: answered.data,
          code: link.purpose === 'confirm' ? ('appointment_confirmed' as const) : ('appointment_cancelled' as const),
        };
      });
    },
  };
}

export type AppointmentLinksService = ReturnType<typeof createAppointmentLinksService>;

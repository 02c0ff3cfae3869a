import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { AppointmentCancelReason, AttendanceType, ConfirmationChannel } from '@odontia/shared/enums';
import { createAttendanceRequestSchema } from '@odontia/shared/schemas/attendances';
import { sql } from 'drizzle-orm';
import type { TenantTx } from '../db/tenancy.ts';
import { type AgendaContext, appointmentsService } from '../features/appointments/appointments.service.ts';
import { weekdayOf } from '../features/appointments/availability.ts';
import { attendancesService } from '../features/attendances/attendances.service.ts';
import { type OnlineContext, onlineBookingService } from '../features/online-booking/online-booking.service.ts';
import { AppError } from '../lib/app-error.ts';
import { firstDemoPatients } from './demo-patients.ts';
import { demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's agenda (issue 16): opening hours Monday to Friday 09:00–20:00 with a lunch
 * recess 14:00–15:00 (seedDemoSchedules writes them, with the chairs and treatments), and the weekdays
 * around today booked for three professionals — past days done (a few no-shows), today's
 * partly confirmed and arrived, the next days scheduled and some confirmed;
 * every appointment and its transitions go through the appointments service, audited. An
 * appointment attended is closed as the agenda's "Iniciar atención" closes it: by the attendance
 * written for it through the attendances service (with its treatment, at its price), which marks
 * it completed and links it — never an "Atendida" without its attendance.
 */

/** The demo's treatments (seedDemoSchedules) by their place in the day plans below. */
const planTreatments = [
  'Revisión',
  'Limpieza',
  'Empaste',
  'Endodoncia',
  'Extracción',
  'Blanqueamiento',
  'Control de ortodoncia',
  'Implante',
];

/** The kind of attendance each treatment of the plans is (same order as planTreatments). */
const planAttendanceTypes: AttendanceType[] = [
  'checkup_control',
  'preventive_medicine',
  'dentistry',
  'dentistry',
  'dental_surgery',
  'dentistry',
  'checkup_control',
  'dental_surgery',
];

/** Each professional's day: start time and treatment (index in demoTreatments). */
const dayPlans: [string, number][][] = [
  [
    ['09:00', 0],
    ['09:30', 2],
    ['10:30', 3],
    ['12:15', 1],
    ['15:00', 4],
    ['16:30', 0],
    ['17:15', 5],
  ],
  [
    ['09:15', 6],
    ['10:00', 1],
    ['11:00', 7],
    ['15:30', 2],
    ['16:30', 6],
    ['18:00', 0],
  ],
  [
    ['09:00', 1],
    ['10:15', 0],
    ['11:00', 2],
    ['12:30', 4],
    ['16:00', 5],
    ['17:30', 0],
  ],
];

export async function seedDemoAgenda(
  tx: TenantTx,
  accountId: string,
  people: { administratorId: string; professionalIds: string[] },
  now: Date = new Date(),
): Promise<void> {
  const ctx: AgendaContext = { tx, accountId, userId: people.administratorId, ip: '127.0.0.1', timeZone: demoTimeZone };
  // The attendance is written by the professional who attended (an administrator's context: any level may).
  const clinicalCtx = (professionalId: string) => ({ ...ctx, userId: professionalId, level: 'administrator' as const });
  // The hours, chairs and treatments come first, from seedDemoSchedules (through their services).
  const chairIds = (
    await tx.execute<{ id: string }>(
      sql`select id from chairs where account_id = ${accountId} and deleted_at is null order by sort_order, name`,
    )
  ).rows.map((row) => row.id);
  const treatments = new Map(
    (
      await tx.execute<{ id: string; name: string; minutes: number; price: string }>(
        sql`select id, name, duration_minutes as minutes, price::text as price from treatments where account_id = ${accountId} and deleted_at is null`,
      )
    ).rows.map((row) => [row.name, row]),
  );
  const patients = (await firstDemoPatients(tx, accountId, 30)) ?? [];
  if (patients.length === 0) return;

  const today = clinicToday(demoTimeZone, now);
  const days: string[] = [];
  for (let offset = -5; offset <= 6; offset += 1) {
    const day = addDays(today, offset);
    if (weekdayOf(day) !== 'saturday' && weekdayOf(day) !== 'sunday') days.push(day);
  }
  let counter = 0;
  const channels: ConfirmationChannel[] = ['phone', 'whatsapp', 'in_person', 'sms'];
  for (const day of days) {
    for (const [professionalIndex, professionalId] of people.professionalIds.entries()) {
      const plan = dayPlans[professionalIndex % dayPlans.length] ?? [];
      for (const [time, treatmentIndex] of plan) {
        counter += 1;
        // A lighter agenda further from today.
        if (day !== today && counter % 3 === 0) continue;
        const treatment = treatments.get(planTreatments[treatmentIndex] ?? 'Revisión');
        if (!treatment) continue;
        const startsAt = instantOfClinicWallTime(`${day}T${time}`, demoTimeZone) as Date;
        const endsAt = new Date(startsAt.getTime() + treatment.minutes * 60_000);
        // A professional with a week of their own is booked only within it (the service refuses the rest).
        const booked = await appointmentsService
          .create({
            ctx,
            input: {
              patientId: patients[counter % patients.length] as string,
              professionalId,
              chairId: professionalIndex < chairIds.length ? (chairIds[professionalIndex] as string) : null,
              treatmentId: treatment.id,
              startsAt: startsAt.toISOString(),
              endsAt: endsAt.toISOString(),
              reason: treatment.name,
              notes: null,
              allowOutsideSchedule: false,
            },
          })
          .catch((error: unknown) => {
            if (error instanceof AppError && error.code === 'appointment_outside_schedule') return null;
            throw error;
          });
        if (!booked) continue;
        let version = booked.version;
        const step = async (action: () => Promise<{ version: number }>) => {
          version = (await action()).version;
        };
        // Attended: its attendance, started from the appointment, completes and links it.
        const attend = () =>
          attendancesService.create({
            ctx: clinicalCtx(professionalId),
            patientId: booked.patientId,
            input: createAttendanceRequestSchema.parse({
              appointmentId: booked.id,
              date: startsAt.toISOString(),
              attendanceType: planAttendanceTypes[treatmentIndex] ?? 'checkup_control',
              professionalId,
              titleResume: treatment.name,
              resume: `${treatment.name}: se realiza según lo planificado, sin complicaciones.`,
              finished: true,
              lines: [{ description: treatment.name, treatmentId: treatment.id, quantity: 1, price: treatment.price }],
            }),
          });
        if (endsAt <= now && day !== today) {
          if (counter % 7 === 1) {
            const reason: AppointmentCancelReason = 'no_show';
            await step(() =>
              appointmentsService.cancel({ ctx, id: booked.id, input: { reason, note: null, version }, now }),
            );
          } else {
            await attend();
          }
        } else if (day === today) {
          if (counter % 4 !== 0) {
            await step(() =>
              appointmentsService.confirm({
                ctx,
                id: booked.id,
                input: {
                  channel: channels[counter % channels.length] as Exclude<ConfirmationChannel, 'reminder_link'>,
                  version,
                },
              }),
            );
          }
          if (startsAt <= now) await step(() => appointmentsService.arrive({ ctx, id: booked.id, input: { version } }));
          if (endsAt <= now) await attend();
        } else if (startsAt > now && counter % 2 === 0) {
          await step(() => appointmentsService.confirm({ ctx, id: booked.id, input: { channel: 'phone', version } }));
        }
      }
    }
  }
  await seedDemoOnlineBooking(tx, accountId, people.professionalIds, patients, now);
}

/**
 * Online booking in the demo (issue 37): the clinic takes bookings for two treatments with every
 * professional, and three patients booked online in the coming days — through the service, so the
 * agenda marks them and their history says so. The first one also confirmed it online.
 */
async function seedDemoOnlineBooking(
  tx: TenantTx,
  accountId: string,
  professionalIds: string[],
  patients: string[],
  now: Date,
): Promise<void> {
  await tx.execute(sql`update accounts set online_booking_enabled = true,
      online_booking_professional_ids = ${`{${professionalIds.join(',')}}`}::uuid[],
      online_booking_lead_hours = 2, online_booking_horizon_days = 60, online_booking_max_pending = 2,
      online_booking_new_patients = true, online_booking_change_hours = 24
    where id = ${accountId}`);
  await tx.execute(sql`update treatments set bookable_online = true
    where account_id = ${accountId} and deleted_at is null and name in ('Revisión', 'Limpieza')`);
  const [revision] = (
    await tx.execute<{ id: string }>(
      sql`select id from treatments where account_id = ${accountId} and name = 'Revisión' and deleted_at is null limit 1`,
    )
  ).rows;
  if (!revision) return;
  const ctx: OnlineContext = { tx, accountId, userId: null, ip: '127.0.0.1', timeZone: demoTimeZone };
  // Two days from now, so the change window (24 h) is still open in the demo.
  const from = new Date(now.getTime() + 2 * 24 * 3_600_000).toISOString();
  const slots = await onlineBookingService.freeSlots({
    ctx,
    query: { treatmentId: revision.id, from, days: 14, limit: 50 },
    now,
  });
  const chosen = [slots[0], slots[7], slots[19]].filter((slot) => slot !== undefined);
  for (const [index, slot] of chosen.entries()) {
    const patientId = patients[(patients.length - 1 - index) % patients.length];
    if (!patientId) continue;
    const booked = await onlineBookingService.bookOnline({
      ctx,
      patientId,
      treatmentId: revision.id,
      professionalId: slot.professionalId,
      start: new Date(slot.startsAt),
      now,
    });
    if (index === 0) await onlineBookingService.answer({ ctx, patientId, id: booked.id, purpose: 'confirm', now });
  }
}

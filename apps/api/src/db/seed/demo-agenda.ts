import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { AppointmentCancelReason, ConfirmationChannel } from '@odontia/shared/enums';
import { sql } from 'drizzle-orm';
import type { TenantTx } from '../../db/tenancy.ts';
import { type AgendaContext, appointmentsService } from '../../features/appointments/appointments.service.ts';
import { weekdayOf } from '../../features/appointments/availability.ts';
import { newId } from '../../lib/ids.ts';
import { firstDemoPatients } from './demo-patients.ts';
import { demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's agenda (issue 16): opening hours Monday to Friday 09:00–20:00 with a lunch
 * recess 14:00–15:00, two chairs, eight treatments with their usual duration, and the weekdays
 * around today booked for three professionals — past days done (a few no-shows), today's
 * partly confirmed and arrived, the next days scheduled and some confirmed. The opening hours,
 * chairs and treatments are plain inserts (their service belongs to the schedules feature);
 * every appointment and its transitions go through the appointments service, audited.
 */

export const demoTreatments = [
  { name: 'Revisión', minutes: 30, color: '#0ea5e9' },
  { name: 'Limpieza', minutes: 45, color: '#22c55e' },
  { name: 'Empaste', minutes: 45, color: '#f59e0b' },
  { name: 'Endodoncia', minutes: 90, color: '#ef4444' },
  { name: 'Extracción', minutes: 45, color: '#a855f7' },
  { name: 'Blanqueamiento', minutes: 60, color: '#ec4899' },
  { name: 'Ortodoncia control', minutes: 20, color: '#14b8a6' },
  { name: 'Implante', minutes: 120, color: '#64748b' },
] as const;

export const demoOpeningHours = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({
  weekday,
  opening: '09:00',
  closing: '20:00',
  recessStart: '14:00',
  recessEnd: '15:00',
}));

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
  await tx.execute(sql`insert into schedules (account_id, id, professional_id, ranges, created_by, updated_by)
    values (${accountId}, ${newId()}, null, ${JSON.stringify(demoOpeningHours)}::jsonb, ${people.administratorId}, ${people.administratorId})`);
  const chairIds = [newId(), newId()];
  for (const [index, id] of chairIds.entries()) {
    await tx.execute(sql`insert into chairs (account_id, id, name, sort_order, created_by, updated_by)
      values (${accountId}, ${id}, ${`Sillón ${index + 1}`}, ${index}, ${people.administratorId}, ${people.administratorId})`);
  }
  const treatmentIds: string[] = [];
  for (const treatment of demoTreatments) {
    const id = newId();
    treatmentIds.push(id);
    await tx.execute(sql`insert into treatments (account_id, id, name, duration_minutes, color, created_by, updated_by)
      values (${accountId}, ${id}, ${treatment.name}, ${treatment.minutes}, ${treatment.color}, ${people.administratorId}, ${people.administratorId})`);
  }
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
        const treatment = demoTreatments[treatmentIndex] ?? demoTreatments[0];
        const startsAt = instantOfClinicWallTime(`${day}T${time}`, demoTimeZone) as Date;
        const endsAt = new Date(startsAt.getTime() + treatment.minutes * 60_000);
        const booked = await appointmentsService.create({
          ctx,
          input: {
            patientId: patients[counter % patients.length] as string,
            professionalId,
            chairId: professionalIndex < chairIds.length ? (chairIds[professionalIndex] as string) : null,
            treatmentId: treatmentIds[treatmentIndex] as string,
            startsAt: startsAt.toISOString(),
            endsAt: endsAt.toISOString(),
            reason: treatment.name,
            notes: null,
            allowOutsideSchedule: true,
          },
        });
        let version = booked.version;
        const step = async (action: () => Promise<{ version: number }>) => {
          version = (await action()).version;
        };
        if (endsAt <= now && day !== today) {
          if (counter % 7 === 1) {
            const reason: AppointmentCancelReason = 'no_show';
            await step(() =>
              appointmentsService.cancel({ ctx, id: booked.id, input: { reason, note: null, version }, now }),
            );
          } else {
            await step(() => appointmentsService.complete({ ctx, id: booked.id, input: { version } }));
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
          if (endsAt <= now) await step(() => appointmentsService.complete({ ctx, id: booked.id, input: { version } }));
        } else if (startsAt > now && counter % 2 === 0) {
          await step(() => appointmentsService.confirm({ ctx, id: booked.id, input: { channel: 'phone', version } }));
        }
      }
    }
  }
}

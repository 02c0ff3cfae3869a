import { addDays, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import {
  chairContracts,
  saveScheduleRequestSchema,
  scheduleExceptionContracts,
  treatmentContracts,
} from '@odontia/shared/schemas/schedules';
import type { TenantTx } from '../db/tenancy.ts';
import { chairsService } from '../features/schedules/chairs.service.ts';
import { scheduleExceptionsService, schedulesService } from '../features/schedules/schedules.service.ts';
import { treatmentsService } from '../features/schedules/treatments.service.ts';
import type { DemoStaff } from './demo-patients.ts';
import { demoDay, demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's agenda settings (issue 16), written through the services (validated,
 * versioned, audited like the screens' saves): opening hours Monday to Friday 09:00–20:00 with a
 * lunch recess 14:00–15:00 and Saturday 09:00–13:00; the supervisor's own week (mornings Monday,
 * Wednesday and Friday, afternoons Tuesday and Thursday); two chairs; the usual treatments with
 * their durations and colours; Christmas as a clinic holiday; reminders 24 h before with the
 * clinic's address and phone.
 */

const workingDays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;

/** Also the demo price list (issue 18): groups and prices in pesos; health care is VAT-exempt, whitening is not. */
export const demoTreatments = [
  {
    name: 'Revisión',
    code: 'REV',
    groupName: 'Diagnóstico',
    price: '25000',
    vatRate: '0',
    durationMinutes: 30,
    color: '#0ea5e9',
  },
  {
    name: 'Limpieza',
    code: 'LIM',
    groupName: 'Prevención',
    price: '40000',
    vatRate: '0',
    durationMinutes: 45,
    color: '#14b8a6',
    // Recalls (issue 38): the cleaning every six months, a root canal's check a week after.
    recallInterval: 6,
    recallUnit: 'months',
    recallReason: 'Limpieza semestral',
  },
  {
    name: 'Empaste',
    code: 'EMP',
    groupName: 'Operatoria',
    price: '55000',
    vatRate: '0',
    durationMinutes: 45,
    color: '#6366f1',
  },
  {
    name: 'Endodoncia',
    code: 'END',
    groupName: 'Endodoncia',
    price: '180000',
    vatRate: '0',
    durationMinutes: 90,
    color: '#f97316',
    recallInterval: 1,
    recallUnit: 'weeks',
    recallReason: 'Control posterior a la endodoncia',
  },
  {
    name: 'Extracción',
    code: 'EXT',
    groupName: 'Cirugía',
    price: '70000',
    vatRate: '0',
    durationMinutes: 45,
    color: '#ef4444',
  },
  {
    name: 'Blanqueamiento',
    code: 'BLA',
    groupName: 'Estética',
    price: '150000',
    vatRate: '21',
    durationMinutes: 60,
    color: '#eab308',
  },
  {
    name: 'Control de ortodoncia',
    code: 'ORT',
    groupName: 'Ortodoncia',
    price: '35000',
    vatRate: '0',
    durationMinutes: 20,
    color: '#a855f7',
  },
  {
    name: 'Implante',
    code: 'IMP',
    groupName: 'Implantes',
    price: '950000',
    vatRate: '0',
    durationMinutes: 120,
    color: '#64748b',
  },
];

export async function seedDemoSchedules(
  tx: TenantTx,
  accountId: string,
  { administratorId, supervisorId }: DemoStaff,
): Promise<void> {
  const ctx = {
    tx,
    accountId,
    userId: administratorId,
    level: 'administrator',
    timeZone: demoTimeZone,
    ip: '127.0.0.1',
  } as const;

  await schedulesService.saveClinic({
    ctx,
    input: saveScheduleRequestSchema.parse({
      version: 0,
      ranges: [
        ...workingDays.map((weekday) => ({
          weekday,
          opening: '09:00',
          closing: '20:00',
          recessStart: '14:00',
          recessEnd: '15:00',
        })),
        { weekday: 'saturday', opening: '09:00', closing: '13:00', recessStart: null, recessEnd: null },
      ],
    }),
  });
  await schedulesService.saveProfessional({
    ctx,
    professionalId: supervisorId,
    input: saveScheduleRequestSchema.parse({
      version: 0,
      ranges: [
        ...(['monday', 'wednesday', 'friday'] as const).map((weekday) => ({
          weekday,
          opening: '09:00',
          closing: '14:00',
          recessStart: null,
          recessEnd: null,
        })),
        ...(['tuesday', 'thursday'] as const).map((weekday) => ({
          weekday,
          opening: '15:00',
          closing: '20:00',
          recessStart: null,
          recessEnd: null,
        })),
      ],
    }),
  });

  for (const [index, name] of ['Sillón 1', 'Sillón 2'].entries())
    await chairsService.create({ ctx, input: chairContracts.create.parse({ name, sortOrder: index + 1 }) });
  for (const treatment of demoTreatments)
    await treatmentsService.create({ ctx, input: treatmentContracts.create.parse(treatment) });

  // The next Christmas, a whole day in the clinic's zone.
  const today = demoDay(0);
  const year = Number(today.slice(0, 4)) + (today.slice(5) > '12-25' ? 1 : 0);
  const christmas = `${year}-12-25`;
  const startsAt = instantOfClinicWallTime(`${christmas}T00:00`, demoTimeZone);
  const endsAt = instantOfClinicWallTime(`${addDays(christmas, 1)}T00:00`, demoTimeZone);
  if (startsAt && endsAt)
    await scheduleExceptionsService.create({
      ctx,
      input: scheduleExceptionContracts.create.parse({
        kind: 'holiday',
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
        allDay: true,
        reason: 'Navidad',
      }),
    });

  await schedulesService.saveReminders({
    ctx,
    input: {
      remindersEnabled: true,
      reminderLeadMinutes: 24 * 60,
      address: 'Av. Santa Fe 2450, piso 3',
      phone: '+54 11 4821-5566',
    },
  });
}

import { appointmentContracts } from '@odontia/shared/schemas/appointments';
import { attendanceContracts } from '@odontia/shared/schemas/attendances';
import { and, eq, inArray } from 'drizzle-orm';
import { recalls, treatments } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { appointmentsService } from '../features/appointments/appointments.service.ts';
import { attendancesService } from '../features/attendances/attendances.service.ts';
import { recallsService } from '../features/recalls/recalls.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';
import { firstDemoPatients } from './demo-patients.ts';
import { demoInstant } from './demo-time.ts';

/**
 * Recalls of the demo clinic (issue 38), written as the screens write them: finished attendances
 * of a cleaning (recall after 6 months) or a root canal (after a week) leave their recalls, then the
 * front desk's steps put one in every state — overdue, due, contacted, booked (by an appointment of
 * the treatment), closed.
 */
export async function seedDemoRecalls(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalIds }: { administratorId: string; professionalIds: string[] },
): Promise<void> {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const patients = await firstDemoPatients(tx, accountId, 6);
  if (!patients || patients.length < 6) return;
  const rows = await tx
    .select({ id: treatments.id, code: treatments.code, name: treatments.name })
    .from(treatments)
    .where(and(eq(treatments.accountId, accountId), inArray(treatments.code, ['LIM', 'END'])));
  const byCode = new Map(rows.map((row) => [row.code, row] as const));
  const cleaning = byCode.get('LIM');
  const rootCanal = byCode.get('END');
  if (!cleaning || !rootCanal) return;
  const professionalId = professionalIds[1] ?? administratorId;
  // [patient, treatment, days ago] → due: cleaning 6 months later, root canal a week later.
  const plan = [
    [0, cleaning, 200],
    [1, cleaning, 170],
    [2, rootCanal, 3],
    [3, cleaning, 190],
    [4, cleaning, 175],
    [5, rootCanal, 30],
  ] as const;
  const made: string[] = [];
  for (const [index, treatment, daysAgo] of plan) {
    const patientId = patients[index] as string;
    const attendance = await attendancesService.create({
      ctx,
      patientId,
      input: attendanceContracts.create.parse({
        date: demoInstant(daysAgo, '11:00').toISOString(),
        attendanceType: 'dentistry',
        professionalId,
        titleResume: treatment.name,
        billable: false,
        attendanceFee: '0',
        finished: true,
        lines: [{ description: treatment.name, treatmentId: treatment.id, quantity: 1, price: '0' }],
      }),
    });
    const [recall] = await tx
      .select({ id: recalls.id })
      .from(recalls)
      .where(and(eq(recalls.accountId, accountId), eq(recalls.attendanceId, attendance.id)));
    made.push(recall?.id ?? '');
  }
  const [, , contacted, overdueContacted, booked, closed] = made;
  if (contacted)
    await recallsService.logAttempt({
      ctx,
      id: contacted,
      input: { channel: 'phone', outcome: 'left_message', note: 'Dejé mensaje en el contestador.' },
    });
  if (overdueContacted)
    await recallsService.logAttempt({
      ctx,
      id: overdueContacted,
      input: { channel: 'message', outcome: 'no_answer', note: null },
    });
  if (closed)
    await recallsService.close({
      ctx,
      id: closed,
      input: { reason: 'treated_elsewhere', note: 'Sigue con su dentista de siempre.' },
    });
  if (booked) {
    // An appointment for the cleaning books the recall by itself.
    await appointmentsService.create({
      ctx,
      input: appointmentContracts.create.parse({
        patientId: patients[4],
        professionalId,
        treatmentId: cleaning.id,
        startsAt: demoInstant(-21, '08:00').toISOString(),
        endsAt: demoInstant(-21, '08:45').toISOString(),
        reason: cleaning.name,
        allowOutsideSchedule: true,
      }),
    });
  }
}

/**
 * A 60-item accepted treatment plan for the `clinical` bench (issue 41), written through the
 * services (the budget made and accepted as the screen's "Aceptar" does), with a third of its
 * sessions carried out by one attendance, so the plan's read has done, pending and invoiced-or-not
 * sessions to derive.
 *
 * What the patient's "Plan de tratamiento" tab requests (the bench's target):
 *   GET /api/patients/:patientId/treatment-plans            (the page of plans, with progress)
 *   GET /api/patients/:patientId/treatment-plans/:planId    (the plan it opens: seven queries whatever its size)
 * and the follow-up screen: GET /api/treatment-plans/follow-up.
 */
import { clinicToday } from '@odontia/shared/clinic-time';
import { createAttendanceRequestSchema } from '@odontia/shared/schemas/attendances';
import { treatmentContracts } from '@odontia/shared/schemas/schedules';
import { acceptTreatmentPlanSchema, createTreatmentPlanSchema } from '@odontia/shared/schemas/treatment-plans';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../src/context.ts';
import type { Database } from '../src/db/client.ts';
import { accounts, treatments } from '../src/db/schema/index.ts';
import { attendancesService } from '../src/features/attendances/attendances.service.ts';
import { treatmentsService } from '../src/features/schedules/treatments.service.ts';
import { treatmentPlansService } from '../src/features/treatment-plans/treatment-plans.service.ts';
import { newId } from '../src/lib/ids.ts';

export const clinicalPlanRequests = (patientId: string, planId: string) => [
  `/api/patients/${patientId}/treatment-plans`,
  `/api/patients/${patientId}/treatment-plans/${planId}`,
];

const benchPriceList = [
  { code: 'OBT', name: 'Obturación simple', price: '35000', groupName: 'Operatoria' },
  { code: 'END', name: 'Endodoncia unirradicular', price: '180000', groupName: 'Endodoncia' },
  { code: 'COR', name: 'Corona de porcelana', price: '480000', groupName: 'Prótesis' },
  { code: 'EXT', name: 'Extracción simple', price: '45000', groupName: 'Cirugía' },
];

const teeth = [
  11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 47,
];

/** Creates, for the clinic's patient, an accepted plan of `items` items (default 60) and carries out a third of its sessions. */
export async function seedClinicalPlan(
  db: Database,
  clinic: { accountId: string; userId: string },
  patientId: string,
  { items = 60 }: { items?: number } = {},
): Promise<{ planId: string; budgetId: string; requests: string[] }> {
  return db.withTenant(clinic.accountId, async (tx) => {
    const [account] = await tx
      .select({ timeZone: accounts.timeZone })
      .from(accounts)
      .where(eq(accounts.id, clinic.accountId));
    const ctx: RequestContext = {
      tx,
      accountId: clinic.accountId,
      userId: clinic.userId,
      level: 'administrator',
      timeZone: account?.timeZone ?? 'Europe/Madrid',
      ip: '127.0.0.1',
    };
    // The budget is issued at the clinic's first active point of sale.
    await tx.execute(sql`insert into points_of_sale (account_id, id, code, name)
      select ${clinic.accountId}::uuid, ${newId()}::uuid, '0001', 'Recepción'
      where not exists (select 1 from points_of_sale where account_id = ${clinic.accountId}::uuid
        and active and deleted_at is null)`);
    const priceList = new Map<string, string>();
    for (const treatment of benchPriceList) {
      const [found] = await tx
        .select({ id: treatments.id })
        .from(treatments)
        .where(
          and(
            eq(treatments.accountId, clinic.accountId),
            sql`lower(${treatments.code}) = lower(${treatment.code})`,
            isNull(treatments.deletedAt),
          ),
        );
      const id =
        found?.id ??
        (
          await treatmentsService.create({
            ctx,
            input: treatmentContracts.create.parse({ ...treatment, vatRate: '0', durationMinutes: 45 }),
          })
        ).id;
      priceList.set(treatment.code, id);
    }
    const item = (index: number) => {
      const treatment = benchPriceList[index % benchPriceList.length] as (typeof benchPriceList)[number];
      const twoSessions = treatment.code === 'COR' || treatment.code === 'END';
      return {
        tooth: teeth[index % teeth.length],
        zone: treatment.code === 'OBT' ? 'occlusal' : null,
        treatmentId: priceList.get(treatment.code),
        unitPrice: treatment.price,
        sessions: twoSessions
          ? [
              { description: 'Primera sesión', sharePercent: '40' },
              { description: 'Segunda sesión', sharePercent: '60' },
            ]
          : [{ sharePercent: '100' }],
      };
    };
    const third = Math.ceil(items / 3);
    const created = await treatmentPlansService.create({
      ctx,
      patientId,
      input: createTreatmentPlanSchema.parse({
        title: `Rehabilitación completa (${items} tratamientos)`,
        professionalId: clinic.userId,
        alternatives: [
          {
            label: 'Plan A',
            phases: [
              { kind: 'urgent', name: 'Urgencias', items: Array.from({ length: third }, (_, i) => item(i)) },
              {
                kind: 'restorative',
                name: 'Restauradora',
                items: Array.from({ length: third }, (_, i) => item(third + i)),
              },
              {
                kind: 'prosthetic',
                name: 'Prótesis',
                items: Array.from({ length: items - 2 * third }, (_, i) => item(2 * third + i)),
              },
            ],
          },
        ],
      }),
    });
    const plan = created.data;
    const accepted = await treatmentPlansService.accept({
      ctx,
      patientId,
      id: plan.id,
      input: acceptTreatmentPlanSchema.parse({
        version: plan.version,
        alternativeId: plan.alternatives[0]?.id,
      }),
    });
    const sessions = (accepted.data.alternatives[0]?.phases ?? [])
      .flatMap((phase) => phase.items)
      .flatMap((entry) => entry.sessions.map((session) => ({ session, entry })));
    // The first third of the sessions carried out in one attendance (at most 100 lines).
    const carried = sessions.slice(0, Math.min(100, Math.ceil(sessions.length / 3)));
    await attendancesService.create({
      ctx,
      patientId,
      input: createAttendanceRequestSchema.parse({
        date: `${clinicToday(ctx.timeZone)}T10:00:00Z`,
        attendanceType: 'dentistry',
        professionalId: clinic.userId,
        titleResume: 'Primera fase del plan',
        billable: true,
        lines: carried.map(({ session, entry }) => ({
          description: session.description,
          treatmentId: entry.treatmentId,
          tooth: entry.tooth,
          budgetLineId: session.budgetLineId,
          quantity: 1,
          price: session.amount,
        })),
      }),
    });
    return {
      planId: plan.id,
      budgetId: accepted.data.budgetId as string,
      requests: clinicalPlanRequests(patientId, plan.id),
    };
  });
}

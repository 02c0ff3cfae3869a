import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { createAttendanceRequestSchema } from '@odontia/shared/schemas/attendances';
import {
  acceptTreatmentPlanSchema,
  bookPlanSessionSchema,
  createTreatmentPlanSchema,
  type TreatmentPlan,
} from '@odontia/shared/schemas/treatment-plans';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { patients, treatments } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { attendancesService } from '../features/attendances/attendances.service.ts';
import { treatmentPlansService } from '../features/treatment-plans/treatment-plans.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';

/**
 * The demo clinic's treatment plans (issue 41), written through the services as the screens do:
 * - the second patient's accepted plan in three phases, from the findings of their odontogram —
 *   the extraction of the 48 and the filling of the 47 done a week ago in one attendance (the
 *   odontogram charted them), the post of the 46 booked for three days ahead, the 14's
 *   restoration and the crown's impression and seating pending (the follow-up list calls them);
 * - the third patient's plan presented with two alternatives (a crown on a post or a removable
 *   partial denture), waiting for the answer.
 */
export async function seedDemoTreatmentPlans(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalIds }: { administratorId: string; professionalIds: readonly string[] },
) {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const today = clinicToday(ctx.timeZone);
  const dentistId = professionalIds[0] ?? administratorId;
  const endodontistId = professionalIds[1] ?? administratorId;
  const people = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt), eq(patients.active, true)))
    .orderBy(asc(patients.skuPatient))
    .limit(3);
  const priceList = await tx
    .select({ id: treatments.id, code: treatments.code, price: treatments.price })
    .from(treatments)
    .where(and(eq(treatments.accountId, accountId), isNull(treatments.deletedAt)));
  const byCode = new Map(priceList.map((treatment) => [treatment.code, treatment]));
  const item = (code: string, values: Record<string, unknown> = {}) => {
    const treatment = byCode.get(code);
    if (!treatment) throw new Error(`demo treatment ${code} missing`);
    return { treatmentId: treatment.id, unitPrice: treatment.price, ...values };
  };
  const [, second, third] = people;
  if (!second || !third) return;

  const created = await treatmentPlansService.create({
    ctx,
    patientId: second.id,
    input: createTreatmentPlanSchema.parse({
      title: 'Rehabilitación del sector posterior',
      professionalId: dentistId,
      notes: 'Primero la urgencia del 48; la corona del 46, ya endodonciado, sobre un perno.',
      alternatives: [
        {
          label: 'Plan A',
          phases: [
            { kind: 'urgent', name: 'Urgencias', items: [item('EXT', { tooth: 48 })] },
            {
              kind: 'restorative',
              name: 'Restauradora',
              items: [item('EMP', { tooth: 47, zone: 'mesial' }), item('EMC', { tooth: 14, zone: 'buccal' })],
            },
            {
              kind: 'prosthetic',
              name: 'Prótesis',
              items: [
                item('PER', { tooth: 46 }),
                item('COR', {
                  tooth: 46,
                  sessions: [
                    { description: 'Toma de impresión', sharePercent: '40' },
                    { description: 'Cementado', sharePercent: '60' },
                  ],
                }),
              ],
            },
          ],
        },
      ],
    }),
  });
  let plan: TreatmentPlan = created.data;
  plan = (await treatmentPlansService.present({ ctx, patientId: second.id, id: plan.id, version: plan.version })).data;
  plan = (
    await treatmentPlansService.accept({
      ctx,
      patientId: second.id,
      id: plan.id,
      input: acceptTreatmentPlanSchema.parse({ version: plan.version, alternativeId: plan.alternatives[0]?.id }),
    })
  ).data;
  const items = (plan.alternatives[0]?.phases ?? []).flatMap((phase) => phase.items);
  const [extraction, filling, , post] = items;
  if (!extraction || !filling || !post) return;
  const line = (entry: typeof extraction) => {
    const session = entry.sessions[0];
    return {
      description: entry.description,
      treatmentId: entry.treatmentId,
      tooth: entry.tooth,
      budgetLineId: session?.budgetLineId,
      quantity: 1,
      price: session?.amount,
    };
  };
  await attendancesService.create({
    ctx,
    patientId: second.id,
    input: createAttendanceRequestSchema.parse({
      date: (instantOfClinicWallTime(`${addDays(today, -7)}T11:00`, ctx.timeZone) as Date).toISOString(),
      attendanceType: 'dentistry',
      professionalId: dentistId,
      titleResume: 'Extracción del 48 y empaste del 47',
      finished: true,
      billable: true,
      lines: [line(extraction), line(filling)],
    }),
  });
  const startsAt = instantOfClinicWallTime(`${addDays(today, 3)}T08:00`, ctx.timeZone) as Date;
  await treatmentPlansService.bookSession({
    ctx,
    patientId: second.id,
    id: plan.id,
    sessionId: post.sessions[0]?.id as string,
    input: bookPlanSessionSchema.parse({
      professionalId: endodontistId,
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 45 * 60_000).toISOString(),
      allowOutsideSchedule: true,
    }),
  });

  const options = await treatmentPlansService.create({
    ctx,
    patientId: third.id,
    input: createTreatmentPlanSchema.parse({
      title: 'Reposición del 46',
      professionalId: dentistId,
      alternatives: [
        {
          label: 'Plan A: corona sobre perno',
          phases: [
            {
              kind: 'prosthetic',
              name: 'Prótesis fija',
              items: [
                item('PER', { tooth: 46 }),
                item('COR', {
                  tooth: 46,
                  sessions: [
                    { description: 'Toma de impresión', sharePercent: '40' },
                    { description: 'Cementado', sharePercent: '60' },
                  ],
                }),
              ],
            },
          ],
        },
        {
          label: 'Plan B: prótesis removible',
          phases: [
            {
              kind: 'prosthetic',
              name: 'Prótesis removible',
              items: [item('PRR', { zone: 'lower', discountRate: '10' })],
            },
          ],
        },
      ],
    }),
  });
  await treatmentPlansService.present({
    ctx,
    patientId: third.id,
    id: options.data.id,
    version: options.data.version,
  });
}

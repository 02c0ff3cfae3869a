import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { createAttendanceRequestSchema } from '@odontia/shared/schemas/attendances';
import {
  affiliationContracts,
  createPresentationSchema,
  payerContracts,
  payerPlanContracts,
  rejectionRequestSchema,
} from '@odontia/shared/schemas/payers';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { patients, treatments } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { attendancesService } from '../features/attendances/attendances.service.ts';
import { invoiceWithPayer } from '../features/payers/payer-invoicing.ts';
import { affiliationsService, payerPlansService, payersService } from '../features/payers/payers.service.ts';
import { buildChunk, presentationsService } from '../features/payers/presentations.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';

/**
 * The demo clinic's obra social (issue 40), written through the services: "Obra Social Andina de
 * Salud" (an invented name) with its Plan 310 — diagnosis at 80 %, prevention with a copay and two
 * sessions a year, endodontics at 60 % with the payer's authorization, everything else at 50 % —
 * three affiliated patients, last month's attendances invoiced split between each patient and the
 * obra social, and last month's presentation built, sent, with one rejection moved to the patient.
 */
export async function seedDemoPayers(
  tx: TenantTx,
  accountId: string,
  { administratorId }: { administratorId: string },
) {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const today = clinicToday(ctx.timeZone);
  const lastMonth = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  const payer = await payersService.create({
    ctx,
    input: payerContracts.create.parse({
      kind: 'obra_social',
      name: 'Obra Social Andina de Salud',
      code: 'OSAS-4410',
      taxId: null,
      paymentTermDays: 45,
      notes: 'Presentación mensual hasta el día 10, con planilla XLSX y autorizaciones.',
    }),
  });
  const priced = await tx
    .select({ id: treatments.id, code: treatments.code, name: treatments.name, price: treatments.price })
    .from(treatments)
    .where(
      and(
        eq(treatments.accountId, accountId),
        isNull(treatments.deletedAt),
        inArray(treatments.code, ['CON', 'RXP', 'SEL', 'ENM']),
      ),
    );
  const byCode = new Map(priced.map((row) => [row.code, row]));
  const endodontics = byCode.get('ENM');
  const plan = await payerPlansService.create({
    ctx,
    payerId: payer.id,
    input: payerPlanContracts.create.parse({
      name: 'Plan 310',
      code: '310',
      rules: [
        { treatmentGroup: 'Diagnóstico', mode: 'percentage', value: '80' },
        { treatmentGroup: 'Prevención', mode: 'copay', value: '5000', limitKind: 'sessions', limitValue: '2' },
        ...(endodontics
          ? [{ treatmentId: endodontics.id, mode: 'percentage', value: '60', authorizationRequired: true }]
          : []),
        { mode: 'percentage', value: '50' },
      ],
    }),
  });
  const affiliated = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt)))
    .orderBy(asc(patients.lastName), asc(patients.id))
    .limit(3);
  const visits = [
    ['CON', 'RXP'],
    ['SEL', 'RXP'],
    ['ENM', 'CON'],
  ];
  for (const [index, { id: patientId }] of affiliated.entries()) {
    await affiliationsService.create({
      ctx,
      patientId,
      input: affiliationContracts.create.parse({
        payerId: payer.id,
        planId: plan.id,
        memberNumber: `310-${String(48210 + index * 37).padStart(6, '0')}/0${index + 1}`,
        validFrom: '2024-01-01',
        primary: true,
      }),
    });
    const lines = (visits[index] ?? [])
      .map((code) => byCode.get(code))
      .filter((row): row is NonNullable<typeof row> => row !== undefined)
      .map((row) => ({ description: row.name, treatmentId: row.id, quantity: 1, price: row.price }));
    if (lines.length === 0) continue;
    const attendance = await attendancesService.create({
      ctx,
      patientId,
      input: createAttendanceRequestSchema.parse({
        date: `${addDays(lastMonth, 8 + index * 5)}T13:00:00.000Z`,
        attendanceType: 'dentistry',
        professionalId: administratorId,
        titleResume: lines.map((line) => line.description).join(' y '),
        resume: 'Prestaciones cubiertas por la obra social.',
        finished: true,
        billable: true,
        lines,
      }),
    });
    const { rows } = await tx.execute<{ id: string; treatment_id: string | null }>(
      // The endodontics line needs the obra social's authorization number.
      sql`select id, treatment_id from attendance_lines
        where account_id = ${accountId}::uuid and attendance_id = ${attendance.id}::uuid and deleted_at is null`,
    );
    await invoiceWithPayer({
      ctx,
      patientId,
      input: {
        attendanceIds: [attendance.id],
        budgetId: null,
        authorizations: rows
          .filter((row) => endodontics && row.treatment_id === endodontics.id)
          .map((row) => ({ sourceId: row.id, number: `AUT-${lastMonth.slice(0, 7).replace('-', '')}-0${index + 1}` })),
      },
    });
  }
  const built = await presentationsService.create({
    ctx,
    input: createPresentationSchema.parse({ payerId: payer.id, period: lastMonth }),
  });
  for (let round = 0; round < 20 && !(await buildChunk(ctx, built.data.id)).done; round++);
  const draft = await presentationsService.get({ ctx, id: built.data.id });
  await presentationsService.send({
    ctx,
    id: draft.id,
    input: { version: draft.version, date: addDays(lastMonth, 40) },
  });
  const lines = await presentationsService.lines({ ctx, id: draft.id, query: { page: 1, pageSize: 100 } });
  const rejected = lines.data.find((line) => line.description.startsWith('Radiografía'));
  if (rejected) {
    await presentationsService.reject({
      ctx,
      id: draft.id,
      input: rejectionRequestSchema.parse({
        splitLineId: rejected.id,
        amount: rejected.payerAmount,
        reason: 'Radiografía sin informe adjunto',
        destination: 'patient',
      }),
    });
  }
}
